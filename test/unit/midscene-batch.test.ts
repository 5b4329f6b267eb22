/**
 * Midscene's batch index files (issue 35) and `@midscene/test` files, told apart from scripts and Sightline flows by
 * their shape. The index is written for these tests from what Midscene documents
 * (https://midscenejs.com/command-line-tools, "Write command-line arguments in a file") and what its CLI reads
 * (@midscene/cli config-factory.ts and cli-utils.ts matchYamlFiles, web-infra-dev/midscene at d0841be): `files:`
 * globs relative to the index's folder, a folder meaning every .yml/.yaml under it, node_modules and hidden files
 * left out, each pattern's matches sorted; `concurrent`, `continueOnError`, `summary`; the rest noted as ignored.
 * The Midscene Test file follows https://midscenejs.com/midscene-test/use ("A typical YAML file").
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SightlineAgent, StepRecord } from '../../src/main/automation/index.js';
import { StepFailedError } from '../../src/main/automation/index.js';
import { FlowFileError, loadFlowFiles, loadFlowRun, type FlowFileProblem } from '../../src/main/flows/flow-file.js';
import type { Flow } from '../../src/main/flows/flow-model.js';
import { runFlowSuite } from '../../src/main/flows/flow-suite.js';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-batch-'));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const path = join(folder, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function script(name: string, assertion = 'The page shows a cart'): string {
  return write(name, `web:\n  url: https://shop.example/\ntasks:\n  - name: ${name}\n    flow:\n      - aiAssert: ${assertion}\n`);
}

function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof FlowFileError) return error.problems.map((problem: FlowFileProblem) => `${problem.file.slice(folder.length + 1)}:${problem.line}:${problem.column}: ${problem.message}`);
    throw error;
  }
  throw new Error('expected a FlowFileError');
}

const load = (path: string) => loadFlowRun([path], { vars: {}, env: {} });

describe('a Midscene batch index', () => {
  it('names its scripts as Midscene matches them, in its order, with the suite settings and a note for what is ignored', () => {
    script('scripts/b-second.yaml');
    script('scripts/a-first.yml');
    script('scripts/.hidden.yaml');
    script('scripts/node_modules/dependency.yaml');
    write('scripts/readme.txt', 'not a script');
    script('more/deep/nested.yaml');
    script('login.yaml');
    const index = write(
      'batch.yaml',
      'files:\n  - ./login.yaml\n  - scripts/*.{yml,yaml}\n  - more\nconcurrent: 3\ncontinueOnError: true\nsummary: summary.json\nshareBrowserContext: true\nheaded: true\ndotenvOverride: true\n',
    );
    const run = load(index);
    expect(run.flows.map((flow) => flow.file.slice(folder.length + 1))).toEqual(['login.yaml', 'scripts/a-first.yml', 'scripts/b-second.yaml', 'more/deep/nested.yaml']);
    expect(run.flows.every((flow) => flow.format === 'midscene')).toBe(true);
    expect(run.batch).toEqual({ file: index, concurrent: 3, continueOnError: true, summary: join(folder, 'summary.json') });
    expect(run.notes).toEqual([
      `${index}:8:1: shareBrowserContext: ignored: each script runs in a browser of its own here, so cookies and storage do not pass from one script to the next`,
      `${index}:9:1: headed: ignored: whether Sightline's browser shows a window is its own configuration`,
      `${index}:10:1: dotenvOverride: ignored: Sightline reads no .env file; set the variables in the environment`,
    ]);
  });

  it('defaults as Midscene does: concurrency unsaid, continueOnError false, no summary; a file named twice runs twice', () => {
    script('only.yaml');
    const run = load(write('batch.yaml', 'files: [only.yaml, "*.yaml"]\n'));
    expect(run.batch).toMatchObject({ concurrent: undefined, continueOnError: false, summary: undefined });
    expect(run.flows.map((flow) => flow.name)).toEqual(['only', 'only']);
    expect(run.notes).toEqual([]);
  });

  it('is read as an index whatever else it has: a web: default is not taken for a script without tasks:, nor files: alone for a Sightline flow', () => {
    script('a.yaml');
    // Before, the first was refused as "a Midscene script needs tasks:" and the second read as a flow without steps.
    expect(load(write('with-web.yaml', 'web:\n  url: https://shop.example/\nfiles: [a.yaml]\n')).flows).toHaveLength(1);
    expect(load(write('bare.yaml', 'files:\n  - a.yaml\n')).flows).toHaveLength(1);
    expect(load(write('with-web.yaml', 'web:\n  url: https://shop.example/\nfiles: [a.yaml]\n')).notes).toEqual([
      expect.stringContaining("1:1: web: ignored: Sightline does not merge an index's web: into its scripts"),
    ]);
  });

  it('refuses, with line and column, what Midscene would not run: no match, a bad setting, a misspelt key, a summary outside its folder', () => {
    script('a.yaml');
    expect(problemsOf(() => load(write('none.yaml', 'files:\n  - ./missing/*.yaml\n')))).toEqual([
      `none.yaml:2:3: files: no .yaml or .yml file matches these patterns (they are relative to ${folder})`,
    ]);
    expect(problemsOf(() => load(write('bad.yaml', 'files: [a.yaml]\nconcurrent: many\ncontinueOnError: yes please\nconcurent: 2\nsummary: ../elsewhere.json\n')))).toEqual([
      'bad.yaml:2:13: concurrent: expected a whole number from 1 to 64, got the text "many"',
      'bad.yaml:3:18: continueOnError: expected true or false, got the text "yes please"',
      expect.stringMatching(/^bad\.yaml:4:1: unknown key concurent in a Midscene batch index; did you mean concurrent\? expected files, /),
      expect.stringMatching(/^bad\.yaml:5:10: summary: expected a \.json file inside the index's folder/),
    ]);
  });

  it("reports a script's own problems in the script, and refuses an index named where a flow is expected", () => {
    write('broken.yaml', 'web:\n  url: https://shop.example/\ntasks:\n  - name: x\n    flow:\n      - aiTapp: the button\n');
    expect(problemsOf(() => load(write('batch.yaml', 'files: [broken.yaml]\n')))).toEqual([expect.stringMatching(/^broken\.yaml:6:9: .*aiTapp/)]);
    const index = write('index.yaml', 'files: [broken.yaml]\n');
    const using = write('using.flow.yaml', 'name: Using\ntarget: { operator: browser, url: https://shop.example/ }\nsteps:\n  - use: index.yaml\n');
    expect(problemsOf(() => load(using))).toContain(
      "index.yaml:1:1: is a Midscene batch index (files:); run it by naming it on the command line: use: and an index's files: take scripts and flows",
    );
    const nesting = write('outer.yaml', 'files: [index.yaml]\n');
    expect(problemsOf(() => load(nesting))).toContain(
      "index.yaml:1:1: is a Midscene batch index (files:); run it by naming it on the command line: use: and an index's files: take scripts and flows",
    );
    expect(index).toBeDefined();
  });

  it('is refused on a worker, whose job is one flow: the client expands the index before it enqueues', () => {
    script('a.yaml');
    const index = write('batch.yaml', 'files: [a.yaml]\n');
    const problems = problemsOf(() => loadFlowFiles([index], { vars: {}, env: {}, root: { folder, name: "the job's folder" } }));
    expect(problems).toEqual([expect.stringContaining('batch.yaml:1:1: is a Midscene batch index (files:)')]);
  });

  it('does not walk a folder reached through a symbolic link, as glob does not', () => {
    script('real/a.yaml');
    symlinkSync(join(folder, 'real'), join(folder, 'linked'));
    const run = load(write('batch.yaml', 'files: ["**/*.yaml"]\n'));
    expect(run.flows.map((flow) => flow.file.slice(folder.length + 1))).toEqual(['real/a.yaml']);
  });

  it('two indexes in one run must agree on how it runs', () => {
    script('a.yaml');
    const first = write('first.yaml', 'files: [a.yaml]\nconcurrent: 2\n');
    const second = write('second.yaml', 'files: [a.yaml]\nconcurrent: 4\n');
    expect(problemsOf(() => loadFlowRun([first, second], { vars: {}, env: {} }))).toEqual([
      'second.yaml:1:1: says concurrent otherwise than first.yaml; run batch indexes that differ in separate runs',
    ]);
  });
});

describe('a Midscene Test file (cases:)', () => {
  it('is named for what it is and refused, never read as a flow', () => {
    const file = write('search.yaml', 'beforeEach:\n  - gotoUrl: https://shop.example\n\ncases:\n  - name: Search for a product\n    steps:\n      - aiAct: Search for mugs\n      - aiAssert: The results include mugs\n');
    const problems = problemsOf(() => load(file));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^search\.yaml:1:1: is a Midscene Test file \(cases:\): .*run it with midscene-test/);
  });
});

describe('a batch index without continueOnError', () => {
  const at = { file: '/flows/a.yaml', line: 1, column: 1 };
  const flow = (name: string): Flow => ({ name, file: `/flows/${name}.yaml`, format: 'midscene', target: { operator: 'browser', at }, vars: {}, secrets: [], steps: [{ kind: 'assert', text: name, at, label: 'aiAssert', continueOnError: false }] });

  function agent(sessionId: string, passes: boolean): SightlineAgent {
    const steps: StepRecord[] = [];
    return {
      sessionId,
      steps,
      cost: { dollars: 0, unpricedTokens: 0 },
      assert: async (text: string) => {
        const record = { kind: 'assert', text, status: passes ? 'passed' : 'failed', sessionId, turnId: 'turn_000000000001', reason: passes ? 'holds' : 'does not hold', answer: undefined, evidence: [], actions: 0, startedAt: new Date().toISOString(), durationMs: 1, cost: { dollars: 0, unpricedTokens: 0 } } as StepRecord;
        steps.push(record);
        if (!passes) throw new StepFailedError('does not hold', record);
        return record;
      },
      close: async () => undefined,
    } as unknown as SightlineAgent;
  }

  it('starts no script after one fails, and says which; with continueOnError every script runs', async () => {
    const flows = [flow('first'), flow('failing'), flow('third')];
    const opened: string[] = [];
    const open = async (each: Flow) => {
      opened.push(each.name);
      return agent(`ses_${each.name}`, each.name !== 'failing');
    };
    const options = { open, env: {}, continueOnError: false, signal: new AbortController().signal, concurrency: 1, retries: 0, shard: undefined };
    const stopping = await runFlowSuite(flows, { ...options, stopAfterFailure: true });
    expect(opened).toEqual(['first', 'failing']);
    expect(stopping.flows.map((result) => [result.name, result.status])).toEqual([['first', 'passed'], ['failing', 'failed'], ['third', 'skipped']]);
    expect(stopping.flows[2]!.error).toBe('not started: failing failed, and the batch index does not say continueOnError: true');

    opened.length = 0;
    const going = await runFlowSuite(flows, { ...options, stopAfterFailure: false });
    expect(opened).toEqual(['first', 'failing', 'third']);
    expect(going.flows.map((result) => result.status)).toEqual(['passed', 'failed', 'passed']);
  });
});
