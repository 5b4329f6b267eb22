/**
 * The work of `sightline frames compare` and `frames hash` (commands/frames.ts declares them): the perception layer
 * on image files, loaded only when one of them runs, since decoding needs sharp.
 */
import type { Command } from 'commander';
import { compareFrames, FrameSizeMismatchError, type FrameComparison } from '../../perception/compare-frames.js';
import type { RawImage } from '../../perception/frame.js';
import { computeHash, type HashAlgorithm } from '../../perception/hashes.js';
import { decodeImageFile, ImageFileError } from '../../perception/image-encoding.js';
import { loadCliConfig } from '../cli-config.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { MAX_THRESHOLD, type CompareFlags, type HashFlags } from './frames-options.js';

export async function compareFrameFiles(invocation: CliInvocation, command: Command, first: string, second: string, flags: CompareFlags): Promise<void> {
  // Without flags, decide exactly as the agent would with this user's configuration.
  const dedup = loadCliConfig(command, invocation.io).config.perception.dedup;
  const threshold = flags.threshold === undefined ? dedup.threshold : parseThreshold(flags.threshold);
  const algorithm = flags.algorithm ?? dedup.algorithm;
  const [before, after] = await Promise.all([readImage(first), readImage(second)]);
  const comparison = compareImages(before, after, first, second, algorithm, threshold);
  invocation.io.stdout(flags.json ? `${JSON.stringify(comparison)}\n` : describeComparison(comparison, threshold));
}

export async function hashFrameFile(invocation: CliInvocation, command: Command, file: string, flags: HashFlags): Promise<void> {
  const algorithm = flags.algorithm ?? loadCliConfig(command, invocation.io).config.perception.dedup.algorithm;
  const image = await readImage(file);
  const hash = computeHash(image, algorithm);
  const output = flags.json
    ? JSON.stringify({ hash, algorithm, width: image.width, height: image.height })
    : hash;
  invocation.io.stdout(`${output}\n`);
}

function parseThreshold(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value > MAX_THRESHOLD) {
    throw new UserError(`--threshold must be a whole number from 0 to ${MAX_THRESHOLD}, got "${text}"`, EXIT.usage);
  }
  return value;
}

async function readImage(path: string): Promise<RawImage> {
  try {
    return await decodeImageFile(path);
  } catch (error) {
    if (error instanceof ImageFileError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}

function compareImages(
  before: RawImage,
  after: RawImage,
  firstPath: string,
  secondPath: string,
  algorithm: HashAlgorithm,
  threshold: number,
): FrameComparison {
  try {
    return compareFrames(before, after, { algorithm, threshold });
  } catch (error) {
    if (error instanceof FrameSizeMismatchError) {
      throw new UserError(
        `cannot compare images of different sizes: ${firstPath} is ${before.width}x${before.height}, ` +
          `${secondPath} is ${after.width}x${after.height}`,
        EXIT.usage,
      );
    }
    throw error;
  }
}

function describeComparison(comparison: FrameComparison, threshold: number): string {
  const measure = `${comparison.algorithm} distance ${comparison.distance}, threshold ${threshold}`;
  if (comparison.duplicate) return `duplicate (${measure}; no changed region)\n`;
  const count = comparison.regions.length;
  const lines = [`changed (${measure}; ${count} changed region${count === 1 ? '' : 's'})`];
  for (const region of comparison.regions) lines.push(`  at ${region.x},${region.y} size ${region.width}x${region.height}`);
  return `${lines.join('\n')}\n`;
}
