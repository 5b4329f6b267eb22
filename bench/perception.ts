/**
 * Perception: hashing a full-HD frame (from raw pixels, and from a PNG file) with each of our algorithms,
 * beside image-hash's blockhash on the same frame in the same run, and the time of a dedup decision.
 * Frames come from test/fixtures/frames (1920x1080 screens).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { imageHash } from 'image-hash';
import { compareFrames } from '../src/main/perception/compare-frames.js';
import { computeHash, type HashAlgorithm } from '../src/main/perception/hashes.js';
import { decodeImageFile } from '../src/main/perception/image-encoding.js';
import { formatMs, markdownTable, measure, speedup, type BenchSection } from './harness.js';

const FIXTURES = resolve(import.meta.dirname, '../test/fixtures/frames');
const FRAME_FILE = `${FIXTURES}/03-type-one-char-a.png`;
const OURS: HashAlgorithm[] = ['phash', 'dhash', 'ahash'];

function imageHashOfFile(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    imageHash(path, 8, true, (error: Error | null, hash: string) => (error ? reject(error) : resolvePromise(hash)));
  });
}

async function run(): Promise<string> {
  if (!existsSync(FRAME_FILE)) return `skipped: ${FRAME_FILE} not found (clone the shared fixtures beside the repo)`;
  const frame = await decodeImageFile(FRAME_FILE);
  const referenceRaw = await measure(() => computeHash(frame, 'blockhash'));
  const referenceFile = await measure(() => imageHashOfFile(FRAME_FILE), { runs: 9, warmup: 1 });

  const hashRows: string[][] = [
    [`image-hash blockhash (reference)`, formatMs(referenceRaw.medianMs), formatMs(referenceFile.medianMs), '1.0×', '1.0×'],
  ];
  for (const algorithm of OURS) {
    const raw = await measure(() => computeHash(frame, algorithm));
    const file = await measure(async () => computeHash(await decodeImageFile(FRAME_FILE), algorithm), { runs: 9, warmup: 1 });
    hashRows.push([
      algorithm,
      formatMs(raw.medianMs),
      formatMs(file.medianMs),
      `${speedup(referenceRaw.medianMs, raw.medianMs)} / ${speedup(referenceFile.medianMs, raw.medianMs)}`,
      speedup(referenceFile.medianMs, file.medianMs),
    ]);
  }

  const pairs = [
    ['identical recapture', '13-recapture-identical-a.png', '13-recapture-identical-b.png'],
    ['one typed character', '03-type-one-char-a.png', '03-type-one-char-b.png'],
    ['dialog opened', '07-dialog-open-a.png', '07-dialog-open-b.png'],
    ['JPEG re-encode (every tile differs: worst case)', '15-jpeg-recompress-a.png', '15-jpeg-recompress-b.jpg'],
  ] as const;
  const decisionRows: string[][] = [];
  for (const [label, first, second] of pairs) {
    const [before, after] = await Promise.all([decodeImageFile(`${FIXTURES}/${first}`), decodeImageFile(`${FIXTURES}/${second}`)]);
    const afterHash = computeHash(after, 'phash');
    const beforeHash = computeHash(before, 'phash');
    // As captureWithDedup runs it: the new frame's hash is computed once and the stored one is known.
    const decision = await measure(() => compareFrames(before, after, { algorithm: 'phash', threshold: 10, knownHashes: { before: beforeHash, after: afterHash } }));
    const result = compareFrames(before, after, { algorithm: 'phash', threshold: 10 });
    decisionRows.push([label, result.duplicate ? 'duplicate' : `changed (${result.regions.length} region${result.regions.length === 1 ? '' : 's'})`, formatMs(decision.medianMs)]);
  }

  return [
    `Hash of one 1920×1080 frame, median ms. "From PNG file" includes reading and decoding the file (ours: sharp; image-hash: its own pngjs path through \`imageHash(file, 8, true)\`). Speed-up of our raw-pixel hash against image-hash's blockhash on raw pixels / on the file; of our file path against its file path.`,
    '',
    markdownTable(['algorithm', 'from raw pixels', 'from PNG file', 'raw speed-up (vs raw / vs file)', 'file speed-up'], hashRows),
    '',
    `Dedup decision (compareFrames: hash distance with known hashes + local change check), 1920×1080, median ms:`,
    '',
    markdownTable(['pair', 'decision', 'ms'], decisionRows),
  ].join('\n');
}

export const section: BenchSection = { name: 'perception', title: 'Perception: perceptual hashes and dedup', run };
