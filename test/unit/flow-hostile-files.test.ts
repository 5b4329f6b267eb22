/**
 * Issue 33, findings 3, 6 and 8, at the loader: a crafted flow file cannot read the rest of the machine through
 * `use:` (nor quote it in a problem), cannot expand its templates without bound, and cannot give the runner a
 * schema pattern that backtracks for ever.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlowFileError, loadFlowFile, type LoadFlowOptions } from '../../src/main/flows/flow-file.js';
import { runSightline } from '../helpers/cli-io.js';

const TARGET = 'target: { operator: browser, url: https://shop.example/ }\n';
/** What the file outside holds: no problem, message or output may show any of it. */
const CANARY = 'sk-canary-0123456789abcdef';
let folder: string;
let outside: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-hostile-flows-'));
  outside = mkdtempSync(join(tmpdir(), 'sightline-hostile-outside-'));
  writeFileSync(join(outside, 'config.json'), JSON.stringify({ model: { apiKey: CANARY } }, null, 2));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function write(path: string, text: string): string {
  const file = join(folder, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function problemsOf(file: string, options: Partial<LoadFlowOptions> = {}): string[] {
  try {
    loadFlowFile(file, { vars: {}, env: {}, ...options });
  } catch (error) {
    if (error instanceof FlowFileError) return error.problems.map((problem) => `${relative(folder, problem.file)}:${problem.line}:${problem.column}: ${problem.message}`);
    throw error;
  }
  throw new Error('expected a FlowFileError');
}

function usingFlow(...uses: string[]): string {
  return `${TARGET}steps:\n${uses.map((use) => `  - use: ${JSON.stringify(use)}\n`).join('')}`;
}

describe('use: never shows a file outside the flow\'s folder that is not a flow (finding 3, locally)', () => {
  it('/etc/passwd, /proc/self/environ and a config file elsewhere are refused at the use:, by the path as written, without a word of them', () => {
    const toPasswd = `${'../'.repeat(12)}etc/passwd`;
    const config = join(outside, 'config.json');
    const file = write('flows/main.flow.yaml', usingFlow(toPasswd, '/proc/self/environ', config));
    const found = problemsOf(file);
    const refusal = (line: number, path: string) =>
      `flows/main.flow.yaml:${line}:10: use: ${path} is not a flow file (a YAML map with steps: or tasks:); it lies outside the folder of main.flow.yaml, so nothing of it is shown (check it on its own with sightline flow FILE)`;
    expect(found).toEqual([refusal(3, toPasswd), refusal(4, '/proc/self/environ'), refusal(5, config)]);
    const text = found.join('\n');
    for (const secret of [CANARY, 'apiKey', 'root:', 'PATH=']) expect(text).not.toContain(secret);
  });

  it('a symlink in the flow\'s folder that points outside is outside', () => {
    symlinkSync(join(outside, 'config.json'), join(folder, 'login.flow.yaml'));
    const file = write('main.flow.yaml', usingFlow('./login.flow.yaml'));
    const found = problemsOf(file);
    expect(found).toEqual([expect.stringMatching(/^main\.flow\.yaml:3:10: use: \.\/login\.flow\.yaml is not a flow file/)]);
    expect(found.join('\n')).not.toContain(CANARY);
  });

  it('a flow shared from another folder is still read, its problems shown whole', () => {
    write('shared/login.flow.yaml', 'steps:\n  - clik: the login button\n');
    const file = write('flows/main.flow.yaml', usingFlow('../shared/login.flow.yaml'));
    expect(problemsOf(file)).toEqual([expect.stringMatching(/^shared\/login\.flow\.yaml:2:5: unknown step kind clik /)]);
  });

  it('sightline flow prints the refusal and nothing of the file', async () => {
    const file = write('flows/main.flow.yaml', usingFlow(join(outside, 'config.json')));
    const run = await runSightline(['--home', join(folder, 'home'), 'flow', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('is not a flow file');
    expect(run.stdout + run.stderr).not.toContain(CANARY);
  });
});

describe('with a root folder, every use: stays inside it (finding 3, a worker\'s job folder)', () => {
  const root = () => ({ folder, name: "the job's folder" });

  it('a use: that leads out with .., or by an absolute path, is refused at its line and column without being read', () => {
    const file = write('main.flow.yaml', usingFlow('../../etc/passwd', '/proc/self/environ', join(outside, 'config.json'), '../no-such-file.yaml'));
    const found = problemsOf(file, { root: root() });
    expect(found).toEqual([
      "main.flow.yaml:3:10: use: ../../etc/passwd is outside the job's folder",
      "main.flow.yaml:4:10: use: /proc/self/environ is outside the job's folder",
      `main.flow.yaml:5:10: use: ${join(outside, 'config.json')} is outside the job's folder`,
      // Not "no such file": whether a file outside exists is not told either.
      "main.flow.yaml:6:10: use: ../no-such-file.yaml is outside the job's folder",
    ]);
  });

  it('a symlink inside the folder that points outside is refused on its real path, even to a flow', () => {
    writeFileSync(join(outside, 'real.flow.yaml'), 'steps:\n  - do: anything\n');
    symlinkSync(join(outside, 'real.flow.yaml'), join(folder, 'sub.flow.yaml'));
    symlinkSync(outside, join(folder, 'elsewhere'));
    const file = write('main.flow.yaml', usingFlow('sub.flow.yaml', 'elsewhere/config.json'));
    expect(problemsOf(file, { root: root() })).toEqual([
      "main.flow.yaml:3:10: use: sub.flow.yaml leads outside the job's folder (through a symbolic link)",
      "main.flow.yaml:4:10: use: elsewhere/config.json leads outside the job's folder (through a symbolic link)",
    ]);
  });

  it('a sub-flow inside the folder loads', () => {
    write('shared/login.flow.yaml', 'steps:\n  - do: log in\n');
    const file = write('flows/main.flow.yaml', usingFlow('../shared/login.flow.yaml'));
    const flow = loadFlowFile(file, { vars: {}, env: {}, root: root() });
    expect(flow.steps[0]).toMatchObject({ kind: 'use', flow: { file: join(folder, 'shared/login.flow.yaml') } });
  });
});
