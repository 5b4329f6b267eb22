/**
 * A long session keeps its memory flat, checked by structure rather than by timings or byte counts: after
 * a full garbage collection at the end of every turn, only the current turn's encoded-image cache is
 * alive (earlier turns' caches, and the images in them, are garbage), and that cache holds about one
 * turn's images, never the session's. The figures over 500 steps are in `npm run bench -- long-session`.
 */
import { describe, expect, it } from 'vitest';
import { runLongSession } from '../helpers/long-session.js';

const STEPS_PER_TURN = 12;
const TURNS = 8;

describe('a long session', () => {
  it('holds one turn\'s encoded images at a time, however many turns came before', { timeout: 120_000 }, async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const samples = await runLongSession({
        steps: STEPS_PER_TURN * TURNS,
        stepsPerTurn: STEPS_PER_TURN,
        sampleEvery: STEPS_PER_TURN,
        screen: { width: 320, height: 200 },
      });

      expect(samples.map((sample) => sample.turn)).toEqual(Array.from({ length: TURNS }, (_, index) => index + 1));
      // Earlier turns' caches were collected: one cache is alive, the running turn's.
      expect(samples.map((sample) => sample.liveCaches)).toEqual(samples.map(() => 1));
      // It holds this turn's screenshots (each at full size and as a reduced view, issue 15) and the anchors of
      // recent turns: bounded by a turn, not the session.
      const cached = samples.map((sample) => sample.liveCachedImages);
      for (const count of cached) expect(count).toBeLessThanOrEqual(2 * STEPS_PER_TURN + 6);
      expect(cached.at(-1)).toBe(cached[2]);
      // No listener piles up on the turn's signal, one per model call (Node would warn after ten).
      expect(warnings.filter((warning) => warning.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
