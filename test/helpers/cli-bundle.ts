/**
 * The CLI bundled as the tests spawn it (test/setup/build-for-tests.ts) and as `npm run bench -- startup` times it:
 * one ES module per entry and per lazily loaded part (code splitting), packages left external so native modules load
 * from node_modules as in the built app.
 *
 * Splitting is what keeps a command's `await import()` lazy once bundled: without it esbuild puts every module in
 * one file and hoists every external `import` to its top, so `sightline --help` loaded Playwright, sharp, BullMQ,
 * pg, the AWS SDK and every model SDK whatever the sources deferred (issue 36).
 */
import { join } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * The packages no command may load before its action runs: a name, or a whole scope (`@aws-sdk/`). Keep in step
 * with .dependency-cruiser-startup.cjs, which keeps the CLI's static import graph from reaching them.
 */
export const HEAVY_PACKAGES = [
  'playwright-core',
  'sharp',
  'bullmq',
  'ioredis',
  'pg',
  '@aws-sdk/',
  'openai',
  '@anthropic-ai/sdk',
  '@google/genai',
  '@modelcontextprotocol/sdk',
  '@tavily/core',
  'better-sqlite3',
  'node-screenshots',
  'uiohook-napi',
  '@nut-tree-fork/',
  'electron-updater',
] as const;

export interface CliBundleOptions {
  /** The checkout whose src/main/cli/main.ts is bundled (the repository, or an older commit's tree). */
  sourceRoot: string;
  /** Where cli.js and its chunks go: inside the repository, so bare imports resolve to its node_modules. */
  outDir: string;
  /** Replace every heavy package by an inert stub: the same command with nothing heavy loaded. */
  stubHeavyPackages?: boolean;
}

/** Bundles the CLI; returns the path to run as `node <path> <args>`. */
export async function bundleCli(options: CliBundleOptions): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { cli: join(options.sourceRoot, 'src/main/cli/main.ts') },
    outdir: options.outDir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: options.stubHeavyPackages === true ? [heavyPackageStubs()] : [],
  });
  return join(options.outDir, 'cli.js');
}

/** The heavy package an import names (`@modelcontextprotocol/sdk/client/index.js` is the MCP SDK), if any. */
export function heavyPackageOf(specifier: string): string | undefined {
  return HEAVY_PACKAGES.find((name) => (name.endsWith('/') ? specifier.startsWith(name) : specifier === name || specifier.startsWith(`${name}/`)));
}

/**
 * Each heavy package becomes one object that answers every property, call and `new` with itself, bundled as
 * CommonJS so that any named import of it links. Whatever a command does with it at load time (extend a class, read
 * a constant) goes through; nothing of the package is read from disk.
 */
function heavyPackageStubs(): Plugin {
  return {
    name: 'heavy-package-stubs',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point' || heavyPackageOf(args.path) === undefined) return undefined;
        return { path: args.path, namespace: 'heavy-stub' };
      });
      build.onLoad({ filter: /.*/, namespace: 'heavy-stub' }, () => ({
        loader: 'js',
        contents: [
          'const stub = new Proxy(function stub() {}, {',
          "  get: (_target, key) => (key === Symbol.toPrimitive ? () => '' : key === 'then' ? undefined : stub),",
          '  apply: () => stub,',
          '  construct: () => stub,',
          '});',
          'module.exports = stub;',
        ].join('\n'),
      }));
    },
  };
}
