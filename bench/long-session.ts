/**
 * A long session through the real loop: 500 steps (10 turns of 50 model calls, compaction at each turn
 * end) with the fake model server and a fake 1280×800 screen that changes at every click. Every 50 steps:
 * heap and RSS after a full garbage collection, the median time to build a request from the database,
 * and the encoded images still alive (the cache is per turn: earlier turns' caches must be garbage).
 * Flat memory and build time from turn to turn is the claim; within a turn both grow with its images.
 */
import { formatMs, markdownTable, type BenchSection } from './harness.js';
import { runLongSession } from '../test/helpers/long-session.js';

export const section: BenchSection = {
  name: 'long-session',
  title: 'Long session: 500 steps through the loop',
  async run() {
    const samples = await runLongSession({ steps: 500, stepsPerTurn: 50, sampleEvery: 50 });
    const rows = samples.map((sample) => [
      String(sample.step),
      String(sample.turn),
      sample.heapUsedMb.toFixed(1),
      sample.rssMb.toFixed(0),
      formatMs(sample.buildMedianMs),
      String(sample.liveCaches),
      String(sample.liveCachedImages),
    ]);
    return [
      markdownTable(['step', 'turn', 'heap MB', 'RSS MB', 'request build (median ms)', 'live image caches', 'live encoded images'], rows),
      '',
      'Samples fall on the last step of each turn, when its cache is fullest. Heap and RSS are measured after a full collection.',
    ].join('\n');
  },
};
