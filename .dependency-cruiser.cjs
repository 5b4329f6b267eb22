/**
 * The layering rules of docs/ARCHITECTURE.md, checked by `npm run layers` (and in CI).
 * Inside src/main the layers form one list; a folder may import only folders below it:
 *   cli, electron -> queue -> flows -> api, mcp-server, automation -> app, report -> agent -> context, search -> llm, operators -> perception -> team-store -> storage -> shared
 * A config.ts of a layer (src/main/config) sits with storage: it only reads files and the environment.
 */
const MAIN_LAYERS = [
  ['cli', 'electron'],
  ['queue'],
  ['flows'],
  ['api', 'mcp-server', 'automation'],
  ['app', 'report'],
  ['agent'],
  ['context', 'search'],
  ['llm', 'operators'],
  ['perception'],
  ['team-store'],
  ['storage', 'config'],
];

/**
 * An npm package as dependency-cruiser names it: by the file it resolves to (`node_modules/bullmq/dist/…`) when it is
 * installed, by the import's name (`bullmq`) when it cannot be resolved. A rule written only as `^bullmq` never
 * matched an installed package, which a probe import found (2026-11-27).
 */
function npmPackage(names) {
  return `^(${names})($|/)|node_modules/(${names})/`;
}

function layerPath(folder) {
  return `^src/main/${folder}/`;
}

// For each layer: it must not import any layer above it, nor a sibling in the same rank (siblings are
// independent by design: context does not know search, llm does not know operators).
const upwardRules = MAIN_LAYERS.flatMap((rank, index) =>
  rank.map((folder) => {
    const forbidden = [...MAIN_LAYERS.slice(0, index).flat(), ...rank.filter((other) => other !== folder)];
    return {
      name: `main-${folder}-imports-only-downward`,
      comment: `src/main/${folder} may only import the layers below it: ${MAIN_LAYERS.slice(index + 1).flat().join(', ')}, and src/shared`,
      severity: 'error',
      from: { path: layerPath(folder) },
      to: { path: `^src/main/(${forbidden.join('|')})/` },
    };
  }),
).filter((rule) => !rule.to.path.endsWith('()/'));

module.exports = {
  forbidden: [
    {
      name: 'only-electron-folder-imports-electron',
      comment: 'Only src/main/electron and src/preload may import electron; everything else runs under plain Node.',
      severity: 'error',
      from: { pathNot: '^src/(main/electron|preload)/' },
      to: { path: ["^electron$", npmPackage('electron')], dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'only-electron-folder-imports-electron-updater',
      comment: 'electron-updater needs Electron; the update policy (src/main/app/app-updates.ts) is handed it, so it runs under Node.',
      severity: 'error',
      from: { pathNot: '^src/main/electron/' },
      to: { path: npmPackage('electron-updater'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'shared-depends-on-nothing-of-ours',
      comment: 'src/shared holds types and schemas only; it runs everywhere and imports nothing else of ours.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(main|preload|renderer)/' },
    },
    {
      name: 'shared-has-no-node-builtins',
      comment: 'src/shared also runs in the sandboxed renderer: no Node built-ins.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-imports-only-shared',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(main|preload)/' },
    },
    {
      name: 'preload-imports-only-shared',
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { path: '^src/(main|renderer)/' },
    },
    {
      name: 'only-llm-imports-openai',
      severity: 'error',
      from: { pathNot: '^src/main/llm/' },
      to: { path: npmPackage('openai'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'only-llm-imports-anthropic',
      comment: "Anthropic's client is a model adapter's business: everything else speaks provider-neutral messages.",
      severity: 'error',
      from: { pathNot: '^src/main/llm/' },
      to: { path: npmPackage('@anthropic-ai/sdk'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'only-llm-imports-google-genai',
      comment: "Google's client is a model adapter's business: everything else speaks provider-neutral messages.",
      severity: 'error',
      from: { pathNot: '^src/main/llm/' },
      to: { path: npmPackage('@google/genai'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'only-search-imports-tavily',
      severity: 'error',
      from: { pathNot: '^src/main/search/' },
      to: { path: npmPackage('@tavily/core'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'only-queue-imports-bullmq',
      comment: 'The flow queue (BullMQ on Redis) is src/main/queue\'s business: the CLI enqueues and serves through it, and a later backend changes one folder.',
      severity: 'error',
      from: { pathNot: '^src/main/queue/' },
      to: { path: npmPackage('bullmq|ioredis'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'only-team-store-imports-its-clients',
      comment: 'The team store (PostgreSQL through pg, S3 through the AWS SDK) is src/main/team-store\'s business: the worker, the CLI and the mirror use it through that folder.',
      severity: 'error',
      from: { pathNot: '^src/main/team-store/' },
      to: { path: npmPackage('pg|pg-[a-z-]+|@aws-sdk/[a-z0-9-]+|@smithy/[a-z0-9-]+'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'only-storage-imports-better-sqlite3',
      comment:
        'All SQL lives in src/main/storage: nothing else opens the database or names its driver. (Calls to ' +
        '.prepare( outside storage are caught by ESLint, which sees calls; this check sees imports only.)',
      severity: 'error',
      from: { pathNot: '^src/main/storage/' },
      to: { path: npmPackage('better-sqlite3'), dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'unknown', 'undetermined'] },
    },
    {
      name: 'agent-is-entered-through-its-index',
      comment:
        'The faces (app, api, mcp-server, cli, electron) use the agent through src/main/agent/index.ts only, so what the agent offers them is one list and its insides can change.',
      severity: 'error',
      from: { path: '^src/main/', pathNot: '^src/main/agent/' },
      to: { path: '^src/main/agent/', pathNot: '^src/main/agent/index\\.ts$' },
    },
    {
      name: 'automation-is-entered-through-its-index',
      comment:
        'flows and the CLI use the automation API (the SDK) through src/main/automation/index.ts only: the flow runner is a client of the SDK like any script.',
      severity: 'error',
      from: { path: '^src/main/', pathNot: '^src/main/automation/' },
      to: { path: '^src/main/automation/', pathNot: '^src/main/automation/index\\.ts$' },
    },
    {
      name: 'src-never-imports-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    ...upwardRules,
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.node.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
