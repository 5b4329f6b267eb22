/**
 * What `sightline` loads before a command's action runs, checked by `npm run layers` (after .dependency-cruiser.cjs).
 * Every start builds the whole commander program: the entry, program.ts and every file of cli/commands/ with all
 * they import statically. None of that may reach a heavy package; a command loads those inside its action, with
 * `await import()` of its runner (docs/ARCHITECTURE.md, "The CLI starts at once"; issue 36).
 *
 * A config of its own because the question is about static imports only: dependency-cruiser's `reachable` follows
 * every edge, dynamic imports included, so here dynamic imports are left out of the graph (`exclude.dynamic`) and
 * type-only imports are dropped as TypeScript drops them (`tsPreCompilationDeps: false`). In the main config the
 * other rules still see both.
 */

/** Keep in step with HEAVY_PACKAGES in test/helpers/cli-bundle.ts, which checks the built CLI at run time. */
const HEAVY_PACKAGES = [
  'playwright-core',
  'sharp',
  'bullmq',
  'ioredis',
  'pg',
  '@aws-sdk/[a-z0-9-]+',
  'openai',
  '@anthropic-ai/sdk',
  '@google/genai',
  '@modelcontextprotocol/sdk',
  '@tavily/core',
  'better-sqlite3',
  'node-screenshots',
  'uiohook-napi',
  '@nut-tree-fork/[a-z0-9-]+',
  'electron-updater',
].join('|');

module.exports = {
  forbidden: [
    {
      name: 'cli-starts-without-heavy-packages',
      comment:
        'The CLI entry, program.ts and cli/commands/* run at every start (even --help): they must not reach Playwright, ' +
        'sharp, BullMQ, the team store clients, a model SDK, MCP or Tavily through static imports. Import the work ' +
        'inside the action (`const { run } = await import(...)`), and keep option schemas and help text in leaf modules.',
      severity: 'error',
      from: { path: '^src/main/cli/(main\\.ts$|program\\.ts$|commands/)' },
      to: { reachable: true, path: `^(${HEAVY_PACKAGES})($|/)|node_modules/(${HEAVY_PACKAGES})/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { dynamic: true },
    tsConfig: { fileName: 'tsconfig.node.json' },
    tsPreCompilationDeps: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
