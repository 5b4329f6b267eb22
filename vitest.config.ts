import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Native modules (better-sqlite3, sharp) and real child processes: forks isolate them best.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets CI print a plain "N passed, N failed" line from the same run.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});
