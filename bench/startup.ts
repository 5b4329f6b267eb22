/**
 * CLI start-up (`npm run bench -- startup`; issue 36, part 3): how long `sightline --help`, `--version` and
 * `flow --help` take, in one run, against
 *
 * - `node -e 0`: Node itself, the floor no command can go under;
 * - today's CLI: the same command from the sources before issue 36 (BASELINE_COMMIT, or SIGHTLINE_BENCH_STARTUP_BASE),
 *   which loaded Playwright, sharp, BullMQ, pg, the AWS SDK, every model SDK, MCP and Tavily at every start;
 * - the same command with nothing heavy loaded: each build again with every heavy package replaced by an inert
 *   stub (test/helpers/cli-bundle.ts), so what is left is our own code, commander and zod.
 *
 * Every build is bundled the same way, as the tests spawn the CLI (esbuild, code splitting, packages external):
 * the rows differ only in their sources. The runs are interleaved, one of each per round, in a rotating order, so
 * a change in the machine's load falls on all of them alike; each figure is the median of the rounds.
 * The aim: each command at most 0.3× today's time.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleCli } from '../test/helpers/cli-bundle.js';
import { formatMs, markdownTable, median, type BenchSection } from './harness.js';

const ROOT = resolve(import.meta.dirname, '..');
/** The last commit before issue 36's start-up work: "today's" CLI. */
const BASELINE_COMMIT = '75f532b';
const ROUNDS = 5;
const AIM = 0.3;

const COMMANDS: readonly (readonly string[])[] = [['--help'], ['--version'], ['flow', '--help']];

interface Variant {
  label: string;
  /** The program and arguments before the command's own; undefined for `node -e 0`. */
  cli: string | undefined;
}

export const section: BenchSection = {
  name: 'startup',
  title: 'CLI start-up: --help, --version and flow --help against node -e 0, today\'s CLI and nothing heavy loaded',
  async run() {
    const baseline = process.env['SIGHTLINE_BENCH_STARTUP_BASE'] ?? BASELINE_COMMIT;
    // Inside the repository, so the bundles' bare imports resolve to its node_modules.
    const buildRoot = join(ROOT, 'test-artifacts', 'bench');
    mkdirSync(buildRoot, { recursive: true });
    const folder = mkdtempSync(join(buildRoot, 'startup-'));
    const home = mkdtempSync(join(tmpdir(), 'sightline-bench-startup-'));
    try {
      const baselineSources = join(folder, 'baseline-sources');
      extractCommit(baseline, baselineSources);
      const variants: Variant[] = [
        { label: 'node -e 0', cli: undefined },
        { label: `today (${baseline})`, cli: await bundleCli({ sourceRoot: baselineSources, outDir: join(folder, 'baseline') }) },
        { label: 'today, nothing heavy', cli: await bundleCli({ sourceRoot: baselineSources, outDir: join(folder, 'baseline-stubbed'), stubHeavyPackages: true }) },
        { label: 'this tree', cli: await bundleCli({ sourceRoot: ROOT, outDir: join(folder, 'current') }) },
        { label: 'this tree, nothing heavy', cli: await bundleCli({ sourceRoot: ROOT, outDir: join(folder, 'current-stubbed'), stubHeavyPackages: true }) },
      ];
      const loadBefore = loadavg()[0]!;
      const times = new Map<string, number[]>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const [commandIndex, command] of COMMANDS.entries()) {
          // Rotate the order each round, so no variant always runs first (or right after the slowest).
          for (let offset = 0; offset < variants.length; offset++) {
            const variant = variants[(round + commandIndex + offset) % variants.length]!;
            const key = `${command.join(' ')}\u0000${variant.label}`;
            times.set(key, [...(times.get(key) ?? []), timeOnce(variant, command, home)]);
          }
        }
      }
      const loadAfter = loadavg()[0]!;
      const rows = COMMANDS.map((command) => {
        const of = (label: string) => median(times.get(`${command.join(' ')}\u0000${label}`) ?? []);
        const today = of(variants[1]!.label);
        const now = of('this tree');
        const ratio = now / today;
        return [
          `\`sightline ${command.join(' ')}\``,
          ...variants.map((variant) => formatMs(of(variant.label))),
          `${ratio.toFixed(2)}×`,
          ratio <= AIM ? 'yes' : 'no',
        ];
      });
      const headers = ['command', ...variants.map((variant) => `${variant.label} (ms)`), 'this tree / today', `≤ ${AIM}×`];
      return [
        markdownTable(headers, rows),
        '',
        `Medians of ${ROUNDS} interleaved rounds; load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end.`,
        '"nothing heavy": the same sources bundled with Playwright, sharp, BullMQ, ioredis, pg, the AWS SDK, the model SDKs,',
        'MCP, Tavily and the native desktop modules replaced by an inert stub.',
      ].join('\n');
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  },
};

/** The commit's sources and the tsconfig files esbuild reads (verbatimModuleSyntax keeps every import). */
function extractCommit(commit: string, target: string): void {
  mkdirSync(target, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', commit, 'src', 'tsconfig.base.json', 'tsconfig.node.json'], { cwd: ROOT, maxBuffer: 512 * 1024 * 1024 });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr.toString()}`);
  const unpack = spawnSync('tar', ['-x', '-C', target], { input: archive.stdout });
  if (unpack.status !== 0) throw new Error(`unpacking ${commit} failed: ${unpack.stderr.toString()}`);
}

/** One run's wall time, from spawn to exit, in milliseconds. A run that fails stops the bench: its time means nothing. */
function timeOnce(variant: Variant, command: readonly string[], home: string): number {
  const args = variant.cli === undefined ? ['-e', '0'] : [variant.cli, '--home', home, ...command];
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  const elapsed = performance.now() - started;
  if (run.status !== 0 || (variant.cli !== undefined && run.stdout === '')) {
    throw new Error(`${variant.label}: node ${args.join(' ')} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  }
  return elapsed;
}
