/**
 * `sightline frames`: the perception layer on image files, to see what dedup decides and why.
 *   frames compare A B [--json] [--algorithm a] [--threshold n]: duplicate or changed, distance, regions
 *   frames hash FILE [--json] [--algorithm a]: the 64-bit hash as 16 hex characters
 * A missing file, a file that is not an image, or two images of different sizes exit with 2.
 */
import { Option, type Command } from 'commander';
import { compareFrames, FrameSizeMismatchError, type FrameComparison } from '../../perception/compare-frames.js';
import type { RawImage } from '../../perception/frame.js';
import { computeHash, HASH_ALGORITHMS, type HashAlgorithm } from '../../perception/hashes.js';
import { decodeImageFile, ImageFileError } from '../../perception/image-encoding.js';
import { loadCliConfig } from '../cli-config.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';

const MAX_THRESHOLD = 64;

interface CompareFlags {
  json?: boolean;
  algorithm?: HashAlgorithm;
  threshold?: string;
}

interface HashFlags {
  json?: boolean;
  algorithm?: HashAlgorithm;
}

export function registerFramesCommand(program: Command, invocation: CliInvocation): void {
  const frames = program.command('frames').description('hash and compare screenshots the way dedup does');

  frames
    .command('compare')
    .description('decide whether two screenshots are duplicates, and show what changed')
    .argument('<first>', 'image file (PNG, JPEG, WebP)')
    .argument('<second>', 'image file of the same size')
    .option('--json', 'print {"duplicate", "distance", "algorithm", "regions"} as JSON')
    .addOption(algorithmOption())
    .option('--threshold <bits>', `largest hash distance still counted as duplicate (0-${MAX_THRESHOLD}; default: config)`)
    .action(async (first: string, second: string, flags: CompareFlags, command: Command) => {
      // Without flags, decide exactly as the agent would with this user's configuration.
      const dedup = loadCliConfig(command, invocation.io).config.perception.dedup;
      const threshold = flags.threshold === undefined ? dedup.threshold : parseThreshold(flags.threshold);
      const algorithm = flags.algorithm ?? dedup.algorithm;
      const [before, after] = await Promise.all([readImage(first), readImage(second)]);
      const comparison = compareImages(before, after, first, second, algorithm, threshold);
      invocation.io.stdout(flags.json ? `${JSON.stringify(comparison)}\n` : describeComparison(comparison, threshold));
    });

  frames
    .command('hash')
    .description('print the perceptual hash of a screenshot (16 hex characters)')
    .argument('<file>', 'image file (PNG, JPEG, WebP)')
    .option('--json', 'print {"hash", "algorithm", "width", "height"} as JSON')
    .addOption(algorithmOption())
    .action(async (file: string, flags: HashFlags, command: Command) => {
      const algorithm = flags.algorithm ?? loadCliConfig(command, invocation.io).config.perception.dedup.algorithm;
      const image = await readImage(file);
      const hash = computeHash(image, algorithm);
      const output = flags.json
        ? JSON.stringify({ hash, algorithm, width: image.width, height: image.height })
        : hash;
      invocation.io.stdout(`${output}\n`);
    });
}

function algorithmOption(): Option {
  return new Option('--algorithm <name>', 'hash algorithm (default: config; blockhash: image-hash, for comparison)').choices(
    HASH_ALGORITHMS,
  );
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
