/**
 * `sightline frames`: the perception layer on image files, to see what dedup decides and why.
 *   frames compare A B [--json] [--algorithm a] [--threshold n]: duplicate or changed, distance, regions
 *   frames hash FILE [--json] [--algorithm a]: the 64-bit hash as 16 hex characters
 * A missing file, a file that is not an image, or two images of different sizes exit with 2.
 * The work is in ../frames/, loaded only when one of them runs: decoding an image needs sharp.
 */
import { Option, type Command } from 'commander';
import { HASH_ALGORITHMS } from '../../perception/hash-algorithms.js';
import type { CliInvocation } from '../io.js';
import { MAX_THRESHOLD, type CompareFlags, type HashFlags } from '../frames/frames-options.js';
import { jsonHelp } from '../option-help.js';

export function registerFramesCommand(program: Command, invocation: CliInvocation): void {
  const frames = program.command('frames').description('hash and compare screenshots the way dedup does');

  frames
    .command('compare')
    .description('decide whether two screenshots are duplicates, and show what changed')
    .argument('<first>', 'image file (PNG, JPEG, WebP)')
    .argument('<second>', 'image file of the same size')
    .option('--json', jsonHelp('{"duplicate", "distance", "algorithm", "regions"}'))
    .addOption(algorithmOption())
    .option('--threshold <bits>', `largest hash distance still counted as duplicate (0-${MAX_THRESHOLD}; default: config)`)
    .action(async (first: string, second: string, flags: CompareFlags, command: Command) => {
      const { compareFrameFiles } = await import('../frames/frame-commands.js');
      await compareFrameFiles(invocation, command, first, second, flags);
    });

  frames
    .command('hash')
    .description('print the perceptual hash of a screenshot (16 hex characters)')
    .argument('<file>', 'image file (PNG, JPEG, WebP)')
    .option('--json', jsonHelp('{"hash", "algorithm", "width", "height"}'))
    .addOption(algorithmOption())
    .action(async (file: string, flags: HashFlags, command: Command) => {
      const { hashFrameFile } = await import('../frames/frame-commands.js');
      await hashFrameFile(invocation, command, file, flags);
    });
}

function algorithmOption(): Option {
  return new Option('--algorithm <name>', 'hash algorithm (default: config; blockhash: image-hash, for comparison)').choices(
    HASH_ALGORITHMS,
  );
}
