/**
 * A child process for the compaction crash test: compacts one turn and, at the chosen point, announces it
 * on stdout and waits to be killed, so the parent can SIGKILL it in the middle of the work.
 *
 * Usage: node --import tsx compaction-child.ts <homeRoot> <turnId> <after-plan|after-first-file|before-row-updates>
 */
import { homeAt } from '../../src/main/config/home.js';
import { compactTurn, type CompactionSeams } from '../../src/main/context/compact-turn.js';
import { openHomeStorage } from './seed.js';

const [root, turnId, point] = process.argv.slice(2);
if (root === undefined || turnId === undefined || point === undefined) {
  process.stderr.write('usage: compaction-child <homeRoot> <turnId> <point>\n');
  process.exit(2);
}

async function pause(): Promise<never> {
  process.stdout.write(`${JSON.stringify({ paused: true, point })}\n`);
  // Wait for SIGKILL; never resolve, and keep the event loop alive.
  return new Promise<never>(() => setInterval(() => undefined, 60_000));
}

let filesMoved = 0;
const seams: CompactionSeams = {
  afterPlan: () => (point === 'after-plan' ? pause() : undefined),
  afterFileMoved: () => {
    filesMoved += 1;
    return point === 'after-first-file' && filesMoved === 1 ? pause() : undefined;
  },
  beforeRowUpdates: () => (point === 'before-row-updates' ? pause() : undefined),
};

const storage = openHomeStorage(homeAt(root));
await compactTurn({ storage, turnId, seams });
process.stdout.write(`${JSON.stringify({ paused: false })}\n`);
