/**
 * Issue 33, findings 3, 6 and 8, at the loader: a crafted flow file cannot read the rest of the machine through
 * `use:` (nor quote it in a problem), cannot expand its templates without bound, and cannot give the runner a
 * schema pattern that backtracks for ever.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SightlineAgent } from '../../src/main/automation/index.js';
import { FlowFileError, loadFlowFile, type LoadFlowOptions } from '../../src/main/flows/flow-file.js';
import { runFlow } from '../../src/main/flows/flow-runner.js';
import { MAX_RENDERED_TEXT_CHARS, renderTemplate, TemplateTooLongError } from '../../src/main/flows/templates.js';
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

describe('rendered texts are bounded at load, from lengths alone (finding 6)', () => {
  /** Each level references the one before ten times: level k renders 10^(k+1) characters. */
  function bomb(levels: number): string {
    const vars = [`  l0: "xxxxxxxxxx"`];
    for (let level = 1; level < levels; level++) vars.push(`  l${level}: "${`\${l${level - 1}}`.repeat(10)}"`);
    return `${TARGET}vars:\n${vars.join('\n')}\nsteps:\n  - do: "Type \${l${levels - 1}}"\n`;
  }

  it('the template bomb is refused at the first variable past 1 MB, with its line and name', () => {
    const text = bomb(9);
    expect(text.length).toBeLessThan(700);
    const file = write('bomb.flow.yaml', text);
    // l5 is a million characters, under 1 MB; l6 would be ten million.
    expect(problemsOf(file)).toEqual([
      "bomb.flow.yaml:9:3: variable l6: rendered, it would be longer than 1 MB, the most a text of a flow may be; each ${…} repeats its variable's whole text",
    ]);
  });

  it('a --var value counts: a parameter repeated past 1 MB is refused (a queued job\'s vars are loaded the same way)', () => {
    const file = write('param.flow.yaml', `${TARGET}params: [note]\nvars:\n  twice: "${'${note}'.repeat(20)}"\nsteps:\n  - do: "\${twice}"\n`);
    expect(problemsOf(file, { vars: { note: 'n'.repeat(60_000) } })).toEqual([expect.stringMatching(/^param\.flow\.yaml:4:3: variable twice: rendered, it would be longer than 1 MB/)]);
    expect(() => loadFlowFile(file, { vars: { note: 'n'.repeat(50_000) }, env: {} })).not.toThrow();
  });

  it('a big but legal flow loads; a ninth step of a megabyte passes the 10 MB a flow may hold, at that step', () => {
    const big = 'x'.repeat(500_000);
    const flow = (steps: number) => `${TARGET}vars:\n  big: "${big}"\n  two: "\${big}\${big}"\nsteps:\n${'  - do: "${two}"\n'.repeat(steps)}`;
    const legal = loadFlowFile(write('legal.flow.yaml', flow(8)), { vars: {}, env: {} });
    expect(legal.steps).toHaveLength(8);
    expect(problemsOf(write('too-much.flow.yaml', flow(10)))).toEqual([
      "too-much.flow.yaml:14:5: the do step: with it the flow's rendered texts pass 10 MB, the most a flow may hold",
    ]);
  });

  it('a sub-flow\'s bomb is refused in its own file', () => {
    write('sub.flow.yaml', bomb(8).replace(TARGET, ''));
    const file = write('main.flow.yaml', usingFlow('sub.flow.yaml'));
    expect(problemsOf(file)).toEqual([expect.stringMatching(/^sub\.flow\.yaml:8:3: variable l6: rendered, it would be longer than 1 MB/)]);
  });
});

describe('what only a run knows is bounded as it renders (finding 6, at run time)', () => {
  it('renderTemplate stops as soon as the text would pass its bound', () => {
    const scope = { half: 'h'.repeat(MAX_RENDERED_TEXT_CHARS / 2 + 1) };
    expect(() => renderTemplate('${half}${half}', scope, { secrets: [] })).toThrow(TemplateTooLongError);
    expect(renderTemplate('${half}', scope, { secrets: [] })).toHaveLength(MAX_RENDERED_TEXT_CHARS / 2 + 1);
  });

  it('a sub-flow whose variable repeats a big with: value fails its run, naming the variable, before any step', async () => {
    write('sub.flow.yaml', `params: [part]\nvars:\n  twice: "\${part}\${part}"\nsteps:\n  - do: "Type \${twice}"\n`);
    const file = write('main.flow.yaml', `${TARGET}vars:\n  big: "${'b'.repeat(600_000)}"\nsteps:\n  - use: sub.flow.yaml\n    with: { part: "\${big}" }\n`);
    const flow = loadFlowFile(file, { vars: {}, env: {} });
    const typed: string[] = [];
    const agent = { sessionId: 'ses_test', steps: [], cost: { dollars: null }, do: async (text: string) => void typed.push(text), close: async () => undefined };
    const result = await runFlow(flow, { open: async () => agent as unknown as SightlineAgent, env: {}, continueOnError: false, signal: new AbortController().signal });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/variable twice of sub: rendered, it would be longer than 1 MB/);
    expect(typed).toEqual([]);
  });
});

describe('schema patterns must run in linear time (finding 8, at load)', () => {
  const extract = (schema: string) => `${TARGET}steps:\n  - extract: the code\n    schema: ${schema}\n`;

  it('a catastrophic but linear-time pattern is taken (RE2 runs it in linear time)', () => {
    const flow = loadFlowFile(write('ok.flow.yaml', extract('{ type: string, pattern: "^(a+)+$" }')), { vars: {}, env: {} });
    expect(flow.steps[0]).toMatchObject({ kind: 'extract', schema: { pattern: '^(a+)+$' } });
  });

  it('lookahead and backreferences are refused at their line, saying why', () => {
    const found = problemsOf(write('bad.flow.yaml', extract('{ type: object, properties: { code: { type: string, pattern: "(?=a)b" } }, patternProperties: { "(a)\\\\1": { type: string } } }')));
    expect(found).toEqual([
      expect.stringMatching(/^bad\.flow\.yaml:4:74: schema properties\.code\.pattern: cannot run in linear time: .*\(lookahead and backreferences can take exponential time on an answer, so they are not run; rewrite the pattern without them\)$/),
      expect.stringMatching(/^bad\.flow\.yaml:4:109: schema patternProperties\.\(a\)\\1: cannot run in linear time: .*lookahead and backreferences/),
    ]);
  });
});
