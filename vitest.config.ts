import { defineConfig } from 'vitest/config';

// Three parts a newcomer can run alone (README, docs/development.md): `npm run test:unit` needs no system
// package and no build; `test:integration` and `test:e2e` start real processes, so their global setup builds
// the CLI and the renderer once per run and measures how loaded the machine is (test/setup/build-for-tests.ts);
// their default limits scale with that measure (test/setup/scaled-limits.ts).
// `npm test` runs all three.
const spawnsProcesses = { globalSetup: ['test/setup/build-for-tests.ts'], setupFiles: ['test/setup/scaled-limits.ts'] };

export default defineConfig({
  test: {
    // Native modules (better-sqlite3, sharp) and real child processes: forks isolate them best.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets CI print a plain "N passed, N failed" line and the slowest files from the same run.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], ...spawnsProcesses } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], ...spawnsProcesses } },
    ],
  },
});
