// Where the test run's time went, from vitest's JSON report (vitest.config.ts writes it): the counts, the time
// spent in each part's files, and the ten slowest files. `node .ci/test-times.mjs [report.json]`
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import process from 'node:process';

const file = process.argv[2] ?? 'test-artifacts/vitest-results.json';
const results = JSON.parse(readFileSync(file, 'utf8'));
const skipped = results.numPendingTests + results.numTodoTests;
// The Node that ran them is named: CI runs the suite on one Node and the unit tests on another.
process.stdout.write(`tests on Node ${process.versions.node}: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);

const files = results.testResults.map((result) => ({
  name: relative(process.cwd(), result.name),
  seconds: (result.endTime - result.startTime) / 1000,
  status: result.status,
}));
const parts = new Map();
for (const { name, seconds } of files) {
  const part = name.split('/')[1] ?? 'other';
  parts.set(part, (parts.get(part) ?? 0) + seconds);
}
// Files run in parallel, so these add up to more than the wall-clock time.
process.stdout.write(`time in test files: ${[...parts].map(([part, seconds]) => `${part} ${Math.round(seconds)} s`).join(', ')}\n`);
process.stdout.write('ten slowest test files:\n');
for (const { name, seconds, status } of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
  process.stdout.write(`  ${seconds.toFixed(1).padStart(7)} s  ${name}${status === 'passed' ? '' : ` (${status})`}\n`);
}
