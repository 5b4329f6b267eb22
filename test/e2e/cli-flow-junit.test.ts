/**
 * `sightline flow`'s CI outputs as a CI job meets them: a real process started from the job's working folder
 * under a umask of 022, a real Chromium on a local page, the fake OpenAI server as the model. The JUnit file of
 * a failed run, of a run with steps allowed to fail (continue_on_error, Midscene's continueOnError) and of runs
 * refused before they started validates with `xmllint --schema` against the Jenkins junit-10 structure; a failed
 * step's frames are PNGs beside the XML, named on [[ATTACHMENT|path]] lines that lead to them; the files asked
 * for are 0644 while the home stays private.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { junitSchemaVerdict } from '../helpers/junit-schema.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { builtCli } from '../helpers/built-cli.js';
import { scaledLimit } from '../helpers/time-limits.js';


let page: CartPageServer;
let model: FakeOpenAiServer;
let home: TemporaryHome;
let workspace: string;

beforeAll(async () => {
  page = await startCartPage();
});

afterAll(async () => {
  await page.close();
});

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-flow-junit');
  workspace = mkdtempSync(join(tmpdir(), 'sightline-ci-workspace-'));
  mkdirSync(join(workspace, 'flows'));
  mkdirSync(join(workspace, 'out'));
});

afterEach(async () => {
  await model.close();
  home.remove();
  rmSync(workspace, { recursive: true, force: true });
});

function flowFile(name: string, text: string): string {
  writeFileSync(join(workspace, 'flows', name), text);
  return `flows/${name}`;
}

/** `sightline flow …` run from the workspace, as a CI job runs it, under a umask of 022. */
function ciFlow(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const modelSetting = (name: string) => /^(OPENAI_|ANTHROPIC_|SIGHTLINE_|GEMINI_|GOOGLE_)/.test(name);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !modelSetting(name)));
  const command = ['umask 022 && exec "$0" "$@"', process.execPath, builtCli(), '--home', home.root, 'flow', ...args, '--base-url', model.baseUrl];
  const child = spawn('/bin/sh', ['-c', ...command], { cwd: workspace, env: { ...inherited, PAGE_URL: page.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return new Promise((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolveExit({ code, ...output }));
  });
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

/** The [[ATTACHMENT|path]] lines of a JUnit file, each path as the file names it. */
function attachments(xml: string): string[] {
  return [...xml.matchAll(/\[\[ATTACHMENT\|([^\]]+)\]\]/g)].map((match) => match[1]!);
}

describe('sightline flow --junit, as CI reads it', () => {
  it('a failed step: a <failure>, its frames as PNGs beside the XML on attachment lines that lead to them, files 0644, the home private', { timeout: scaledLimit(180_000) }, async () => {
    const file = flowFile('total.flow.yaml', `name: Total\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - do: Look at the cart\n    name: look\n  - assert: The total is $10\n  - do: Pay\n`);
    model.script(
      scriptedMoves([
        { finish: 'Looked at the cart.' },
        { tool: 'answer', arguments: { verdict: false, reason: 'The total is $12.50.', evidence: [] } },
      ]),
    );
    const run = await ciFlow([file, '--junit', 'out/junit.xml', '--out', 'out/out.json', '--report', 'out/report.html']);
    expect(run.code, run.stderr).toBe(1);

    const junit = join(workspace, 'out', 'junit.xml');
    expect(junitSchemaVerdict(junit)).toBe('validates');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('file="flows/total.flow.yaml"');
    expect(xml).toMatch(/<testcase name="2 assert: The total is \$10"[^>]*>\s*<failure message="The total is \$12\.50\." type="AssertionFailed">/);
    expect(xml).toContain('at: flows/total.flow.yaml:6:5');
    const named = attachments(xml);
    const frames = named.filter((path) => path.endsWith('.png'));
    expect(frames.length).toBeGreaterThan(0);
    expect(named).toContain('out/report.html');
    for (const path of named) expect(existsSync(join(workspace, path)), path).toBe(true);
    for (const frame of frames) {
      expect(frame).toMatch(/^out\/junit\.img_[0-9a-z]+\.png$/);
      expect(readFileSync(join(workspace, frame)).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }

    // The files asked for follow the umask (022: 0644), so a CI agent running as another user reads them.
    for (const path of ['out/junit.xml', 'out/out.json', 'out/report.html', ...frames]) expect(mode(join(workspace, path)), path).toBe(0o644);
    // What Sightline keeps for itself stays private whatever the umask.
    expect(mode(home.root)).toBe(0o700);
    expect(mode(join(home.root, 'sightline.db'))).toBe(0o600);
  });

  it('steps allowed to fail (continue_on_error, a Midscene task with continueOnError): exit 0, said everywhere, no <failure>', { timeout: scaledLimit(180_000) }, async () => {
    const soft = flowFile('a-soft.flow.yaml', `name: Soft\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - assert: A coupon field is shown\n    continue_on_error: true\n  - assert: The cart is shown\n`);
    const midscene = flowFile(
      'b-tasks.yaml',
      `web:\n  url: "\${PAGE_URL}"\ntasks:\n  - name: optional banner\n    continueOnError: true\n    flow:\n      - aiAssert: a cookie banner is shown\n      - aiAssert: the banner says hello\n  - name: cart\n    flow:\n      - aiAssert: the cart is shown\n`,
    );
    model.script(
      scriptedMoves([
        { tool: 'answer', arguments: { verdict: false, reason: 'No coupon field.', evidence: [] } },
        { tool: 'answer', arguments: { verdict: true, reason: 'The cart is there.', evidence: [] } },
        { tool: 'answer', arguments: { verdict: false, reason: 'No banner.', evidence: [] } },
        { tool: 'answer', arguments: { verdict: true, reason: 'The cart is there.', evidence: [] } },
      ]),
    );
    const run = await ciFlow([soft, midscene, '--junit', 'out/junit.xml', '--out', 'out/out.json', '--report', 'out/report.html']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/! 1 assert: A coupon field is shown \([0-9.]+ s\) \[failed, allowed by continue_on_error\]/);
    expect(run.stderr).toMatch(/! 1\.1 aiAssert: a cookie banner is shown \([0-9.]+ s\) \[failed, allowed by continue_on_error\]/);
    // The task's own line comes when its steps have run, and says how it ended: !, never a ✓ printed before them.
    expect(run.stderr).toMatch(/! 1\.1 aiAssert[^\n]*\n(?:[^\n]*\n)*? {2}! 1 optional banner: optional banner \([0-9.]+ s\) \[failed, allowed by continue_on_error\]/);
    expect(run.stderr).not.toMatch(/✓ 1 optional banner/);
    expect(run.stderr).toMatch(/✓ 2 cart: cart \([0-9.]+ s\)/);
    expect(run.stderr).toContain('2 flows: 2 passed, 0 failed');

    const out = JSON.parse(readFileSync(join(workspace, 'out', 'out.json'), 'utf8')) as { status: string; flows: Array<{ status: string; steps: Array<{ path: string; status: string; allowed?: boolean; turnId?: string }> }> };
    expect(out.status).toBe('passed');
    expect(out.flows.map((flow) => flow.status)).toEqual(['passed', 'passed']);
    expect(out.flows[0]!.steps.map((step) => [step.path, step.status, step.allowed ?? false])).toEqual([
      ['1', 'failed', true],
      ['2', 'passed', false],
    ]);
    // The task says a step in it failed; the step after the failure in that task did not run.
    expect(out.flows[1]!.steps.map((step) => [step.path, step.status, step.allowed ?? false])).toEqual([
      ['1', 'failed', true],
      ['1.1', 'failed', true],
      ['1.2', 'skipped', false],
      ['2', 'passed', false],
      ['2.1', 'passed', false],
    ]);

    const junit = join(workspace, 'out', 'junit.xml');
    expect(junitSchemaVerdict(junit)).toBe('validates');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).not.toContain('<failure');
    expect(xml).toMatch(/<testsuites [^>]*failures="0" errors="0"/);
    expect(xml).toContain('failed, allowed by continue_on_error: No coupon field.');
    expect(xml).toContain('failed, allowed by continue_on_error: No banner.');
    for (const path of attachments(xml)) expect(existsSync(join(workspace, path)), path).toBe(true);

    expect(readFileSync(join(workspace, 'out', 'report.html'), 'utf8')).toContain('allowed to fail (continue_on_error)');

    // The timeline reads the turns: those whose step failed where allowed say so; the others do not.
    const storage = openHomeStorage(home);
    try {
      const turnsOf = (flow: number) => out.flows[flow]!.steps.filter((step) => step.turnId !== undefined).map((step) => [step.path, storage.turns.get(step.turnId!)?.allowedFailure ?? false]);
      expect(turnsOf(0)).toEqual([
        ['1', true],
        ['2', false],
      ]);
      expect(turnsOf(1)).toEqual([
        ['1.1', true],
        ['2.1', false],
      ]);
    } finally {
      storage.close();
    }
  });

  it('a run refused before it starts still writes JUnit, --out and --report: one errored case per refused file, with its problems', { timeout: scaledLimit(180_000) }, async () => {
    const bad = flowFile('bad.flow.yaml', `name: Bad\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - do: Open \${nowhere}\n  - clik: the button\n`);
    const good = flowFile('good.flow.yaml', `name: Good\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - do: Look\n`);
    const run = await ciFlow([bad, good, '--junit', 'out/junit.xml', '--out', 'out/out.json', '--report', 'out/report.html']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/bad\.flow\.yaml:5:5: .*clik/);
    expect(model.requests).toHaveLength(0);

    const junit = join(workspace, 'out', 'junit.xml');
    expect(junitSchemaVerdict(junit)).toBe('validates');
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(1);
    expect(xml).toMatch(/<testsuite name="flows\/bad\.flow\.yaml" tests="1" failures="0" errors="1"[^>]*file="flows\/bad\.flow\.yaml"/);
    expect(xml).toMatch(/<error message="the flow file has 2 problems; nothing was run" type="Refused">[^<]*flows\/bad\.flow\.yaml:4:\d+: [^<]*nowhere[^<]*\nflows\/bad\.flow\.yaml:5:5: [^<]*clik/);
    for (const path of attachments(xml)) expect(existsSync(join(workspace, path)), path).toBe(true);
    const out = JSON.parse(readFileSync(join(workspace, 'out', 'out.json'), 'utf8')) as { status: string; flows: Array<{ status: string; refused: string[] }> };
    expect(out.status).toBe('refused');
    expect(out.flows[0]!.refused).toHaveLength(2);
    expect(readFileSync(join(workspace, 'out', 'report.html'), 'utf8')).toContain('nothing was run');

    // A bad flag once the files are known: every file named gets the refusal.
    const flagged = await ciFlow([good, '--shard', '3/2', '--junit', 'out/flag.xml']);
    expect(flagged.code, flagged.stderr).toBe(2);
    const flagXml = readFileSync(join(workspace, 'out', 'flag.xml'), 'utf8');
    expect(junitSchemaVerdict(join(workspace, 'out', 'flag.xml'))).toBe('validates');
    expect(flagXml).toMatch(/<testsuite name="flows\/good\.flow\.yaml"[^>]*errors="1"/);
    expect(flagXml).toMatch(/<error message="refused before anything ran: --shard: expected I\/N/);
  });
});
