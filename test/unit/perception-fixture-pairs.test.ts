/**
 * The labelled screen pairs of test/fixtures/frames: every `changed` pair must be reported changed
 * (hiding one blinds the agent), and most `duplicate` pairs should be folded (each miss costs tokens).
 * Reading PNG files is part of the setup only; the decision is computed on raw pixels.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compareFrames, type FrameComparison } from '../../src/main/perception/compare-frames.js';
import { decodeImageFile } from '../../src/main/perception/image-encoding.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/frames');
const LabelsSchema = z.array(z.object({ id: z.string(), a: z.string(), b: z.string(), label: z.enum(['changed', 'duplicate']) }));
const labels = LabelsSchema.parse(JSON.parse(readFileSync(join(FIXTURES, 'labels.json'), 'utf8')));
const { algorithm, threshold } = DEFAULT_CONFIG.perception.dedup;

const results = new Map<string, FrameComparison>();

beforeAll(async () => {
  for (const pair of labels) {
    const [before, after] = await Promise.all([decodeImageFile(join(FIXTURES, pair.a)), decodeImageFile(join(FIXTURES, pair.b))]);
    results.set(pair.id, compareFrames(before, after, { algorithm, threshold }));
  }
});

describe('dedup on the labelled fixture pairs (default config)', () => {
  const changedPairs = labels.filter((pair) => pair.label === 'changed');
  const duplicatePairs = labels.filter((pair) => pair.label === 'duplicate');

  it('has the pairs the fixture README describes', () => {
    expect(changedPairs.length).toBe(12);
    expect(duplicatePairs.length).toBe(6);
  });

  it.each(changedPairs.map((pair) => pair.id))('reports %s as changed, with a region', (id) => {
    const result = results.get(id)!;
    expect(result.duplicate).toBe(false);
    expect(result.regions.length).toBeGreaterThan(0);
  });

  it('keeps every changed pair and folds most duplicates (counts printed)', () => {
    const changedKept = changedPairs.filter((pair) => !results.get(pair.id)!.duplicate).length;
    const duplicatesFolded = duplicatePairs.filter((pair) => results.get(pair.id)!.duplicate);
    const notFolded = duplicatePairs.filter((pair) => !results.get(pair.id)!.duplicate).map((pair) => pair.id);
    console.log(
      `fixture pairs: changed kept ${changedKept}/${changedPairs.length}, duplicates folded ` +
        `${duplicatesFolded.length}/${duplicatePairs.length}` + (notFolded.length ? ` (kept as changed: ${notFolded.join(', ')})` : ''),
    );
    expect(changedKept).toBe(changedPairs.length);
    expect(duplicatesFolded.length).toBeGreaterThan(duplicatePairs.length / 2);
  });

  it('shows why the local check is needed: the global hash alone would fold most changed pairs', () => {
    const foldedByHashAlone = changedPairs.filter((pair) => results.get(pair.id)!.distance <= threshold).length;
    expect(foldedByHashAlone).toBeGreaterThanOrEqual(8);
  });
});
