/**
 * `.ci/test-times.mjs`, CI's summary of a vitest JSON report: its result line names the Node that ran the
 * tests, since CI runs the whole suite on Node 24 and the unit tests again on Node 26 (.ci/run).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

const script = resolve(import.meta.dirname, '../../.ci/test-times.mjs');
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'test-times-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it('names the Node version on the result line', () => {
  const report = join(folder, 'results.json');
  const file = (name: string, seconds: number) => ({ name: join(process.cwd(), name), startTime: 0, endTime: seconds * 1000, status: 'passed' });
  writeFileSync(
    report,
    JSON.stringify({
      numPassedTests: 3,
      numFailedTests: 1,
      numPendingTests: 1,
      numTodoTests: 0,
      testResults: [file('test/unit/a.test.ts', 2), file('test/e2e/b.test.ts', 5)],
    }),
  );
  const output = execFileSync(process.execPath, [script, report], { encoding: 'utf8' });
  expect(output.split('\n')[0]).toBe(`tests on Node ${process.versions.node}: 3 passed, 1 failed, 1 skipped`);
  expect(output).toContain('time in test files: unit 2 s, e2e 5 s');
});
