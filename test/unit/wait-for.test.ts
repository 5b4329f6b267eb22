/** The shared polling helper of the tests must end: with the value it waited for, or naming what never came. */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.js';

describe('waitFor', () => {
  it('resolves with the first value that is neither undefined nor false', async () => {
    let probes = 0;
    const value = await waitFor(() => (++probes >= 3 ? `after ${probes}` : undefined), { description: 'three probes', intervalMs: 1 });
    expect(value).toBe('after 3');
  });

  it('fails after its deadline, naming what it waited for', async () => {
    await expect(waitFor(() => false, { description: 'a thing that never happens', timeoutMs: 30, intervalMs: 5 })).rejects.toThrow(
      'Timed out after 30 ms waiting for a thing that never happens.',
    );
  });
});
