/**
 * `sightline flow` as a user runs it: a real process, a real Chromium on a local page, the fake OpenAI server as the
 * model. A passing flow exits 0 with its extracted value in --out and a well-formed JUnit file; a false assertion
 * exits 1 with a JUnit failure carrying the reason and the evidence; a Midscene script runs; secrets are typed from
 * the environment and appear nowhere; a bad file is refused before anything runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import { startCartPage, NAME_FIELD, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';
import { CLI_TEST_MS, scaledLimit } from '../helpers/time-limits.js';

let page: CartPageServer;
let browser: Browser;

beforeAll(async () => {
  page = await startCartPage();
  browser = await chromium.launch({ executablePath: findBrowserExecutable({ env: process.env, platform: process.platform }), args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await page.close();
});

let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-flow');
  folder = mkdtempSync(join(tmpdir(), 'sightline-flow-files-'));
});

afterEach(async () => {
  await model.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function flowFile(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

function runFlow(args: readonly string[], env: Record<string, string> = {}) {
  return runSightlineProcess(['--home', home.root, 'flow', ...args, '--base-url', model.baseUrl], { PAGE_URL: page.url, ...env });
}

/** Whether Chromium's XML parser reads the text without an error. */
async function parsesAsXml(xml: string): Promise<boolean> {
  const tab = await browser.newPage();
  try {
    return await tab.evaluate(`new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml').querySelector('parsererror') === null`);
  } finally {
    await tab.close();
  }
}

const CHECKOUT = `name: Checkout
target: { operator: browser, url: "\${env.PAGE_URL}" }
vars: { fruit: apple }
steps:
  - do: Type \${fruit} into the name field
  - assert: The name field shows \${fruit}
  - extract: the cart total
    as: total
    schema: { type: object, properties: { amount: { type: number } }, required: [amount] }
  - if: A cookie banner is visible
    then: [ { do: Accept the cookies } ]
  - assert: "The total is \${total.amount}"
`;

describe('sightline flow', () => {
  it('runs a passing flow: exit 0, the extracted value in --out, a well-formed JUnit file', { timeout: scaledLimit(120_000) }, async () => {
    const file = flowFile('checkout.flow.yaml', CHECKOUT);
    model.script(
      scriptedMoves([
        { action: { action: 'click', ...NAME_FIELD } },
        { action: { action: 'type', text: 'apple' } },
        { finish: 'Typed apple.' },
        { tool: 'answer', arguments: { verdict: true, reason: 'The field shows apple.', evidence: [] } },
        { tool: 'answer', arguments: { value: { amount: 12.5 }, reason: 'The total reads $12.50.', evidence: [] } },
        { tool: 'answer', arguments: { verdict: false, reason: 'No banner is shown.', evidence: [] } },
        { tool: 'answer', arguments: { verdict: true, reason: 'It reads $12.50.', evidence: [] } },
      ]),
    );
    const out = join(folder, 'out.json');
    const junit = join(folder, 'junit.xml');
    const run = await runFlow([file, '--out', out, '--junit', junit]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('1 flow: 1 passed, 0 failed');

    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      status: string;
      flows: Array<{ name: string; status: string; sessionId: string; steps: Array<{ path: string; kind: string; status: string; value?: unknown; evidence: string[]; text?: string }> }>;
    };
    expect(report.status).toBe('passed');
    const [flow] = report.flows;
    expect(flow!.name).toBe('Checkout');
    expect(flow!.steps.map((step) => [step.path, step.kind, step.status])).toEqual([
      ['1', 'do', 'passed'],
      ['2', 'assert', 'passed'],
      ['3', 'extract', 'passed'],
      ['4', 'if', 'passed'],
      ['5', 'assert', 'passed'],
    ]);
    expect(flow!.steps[2]!.value).toEqual({ amount: 12.5 });
    expect(flow!.steps[3]!.value).toBe(false);
    // The extracted value was used by a later step's template.
    expect(flow!.steps[4]!.text).toBe('The total is 12.5');
    expect(flow!.steps[1]!.evidence).toHaveLength(1);

    const xml = readFileSync(junit, 'utf8');
    expect(await parsesAsXml(xml)).toBe(true);
    expect(xml).toContain('<testsuite name="Checkout" tests="5" failures="0"');
    expect(xml).toContain(`<property name="session" value="${flow!.sessionId}"/>`);

    const storage = openHomeStorage(home);
    try {
      expect(storage.sessions.get(flow!.sessionId)?.flowName).toBe('Checkout');
      expect(storage.turns.listBySession(flow!.sessionId).map((turn) => turn.stepKind)).toEqual(['do', 'assert', 'extract', 'if', 'assert']);
    } finally {
      storage.close();
    }
  });

  it('exits 1 on a false assertion, with a JUnit failure that carries the reason and the evidence', { timeout: scaledLimit(120_000) }, async () => {
    const file = flowFile(
      'total.flow.yaml',
      `name: Total\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - assert: The total is $10\n  - do: Pay\n`,
    );
    model.script(scriptedMoves([{ tool: 'answer', arguments: { verdict: false, reason: 'The total is $12.50 & not <$10>.', evidence: [] } }]));
    const junit = join(folder, 'junit.xml');
    const report = join(folder, 'report.html');
    const run = await runFlow([file, '--junit', junit, '--report', report]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('The total is $12.50 & not <$10>.');
    // The HTML report: the failed step with its reason as text, and the frame it failed on inline.
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('The total is $12.50 &amp; not &lt;$10&gt;.');
    expect(html).toMatch(/<img src="data:image\/png;base64,/);
    expect(html).toContain('class="flow-step flow-step-failed"');
    const xml = readFileSync(junit, 'utf8');
    expect(await parsesAsXml(xml)).toBe(true);
    expect(xml).toMatch(/<failure message="The total is \$12\.50 &amp; not &lt;\$10&gt;\." type="AssertionFailed">/);
    expect(xml).toMatch(/evidence: img_[0-9a-f]{12}/);
    // The step after the failure did not run.
    expect(xml).toMatch(/<testcase name="2 do: Pay"[^>]*>\s*<skipped/);
    expect(model.requests).toHaveLength(1);
  });

  it('runs a Midscene script', { timeout: scaledLimit(120_000) }, async () => {
    const file = flowFile(
      'midscene.yaml',
      `web:\n  url: "\${PAGE_URL}"\ntasks:\n  - name: fill\n    flow:\n      - aiInput: apple\n        locate: the name field\n      - aiAssert: the name field shows apple\n      - aiNumber: the cart total in dollars\n        name: total\n`,
    );
    model.script(
      scriptedMoves([
        { action: { action: 'click', ...NAME_FIELD } },
        { action: { action: 'type', text: 'apple' } },
        { finish: 'Typed apple.' },
        { tool: 'answer', arguments: { verdict: true, reason: 'The field shows apple.', evidence: [] } },
        { tool: 'answer', arguments: { value: 12.5, reason: 'The total reads $12.50.', evidence: [] } },
      ]),
    );
    const out = join(folder, 'out.json');
    const run = await runFlow([file, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ steps: Array<{ label: string; status: string; value?: unknown }> }> };
    expect(report.flows[0]!.steps.map((step) => [step.label, step.status])).toEqual([
      ['fill', 'passed'],
      ['aiInput', 'passed'],
      ['aiAssert', 'passed'],
      ['aiNumber', 'passed'],
    ]);
    expect(report.flows[0]!.steps[3]!.value).toBe(12.5);
  });

  it('types a secret from the environment; the model, the reports and the database see only its placeholder', { timeout: scaledLimit(120_000) }, async () => {
    const secret = 'open-sesame-4471';
    const file = flowFile(
      'login.flow.yaml',
      `name: Login\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsecrets: [SHOP_PASSWORD]\nsteps:\n  - do: Type \${SHOP_PASSWORD} into the name field\n`,
    );
    model.script(
      scriptedMoves([
        { action: { action: 'click', ...NAME_FIELD } },
        { action: { action: 'type', text: '{{SHOP_PASSWORD}}' } },
        { finish: 'Typed the password.' },
      ]),
    );
    const out = join(folder, 'out.json');
    const junit = join(folder, 'junit.xml');
    const report = join(folder, 'report.html');
    const run = await runFlow([file, '--out', out, '--junit', junit, '--report', report, '--json'], { SHOP_PASSWORD: secret });
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests[0]!.rawBody).toContain('{{SHOP_PASSWORD}}');
    const everything = [model.requests.map((request) => request.rawBody).join(''), run.stdout, run.stderr, readFileSync(out, 'utf8'), readFileSync(junit, 'utf8'), readFileSync(report, 'utf8')].join('\n');
    expect(everything).not.toContain(secret);
    const storage = openHomeStorage(home);
    try {
      const session = storage.sessions.list()[0]!;
      const stored = JSON.stringify([storage.steps.listBySession(session.id), storage.messages.listBySession(session.id), storage.turns.listBySession(session.id)]);
      expect(stored).not.toContain(secret);
      expect(stored).toContain('{{SHOP_PASSWORD}}');
    } finally {
      storage.close();
    }
  });

  it('refuses a bad file before anything runs, with its line and column, exit 2', { timeout: scaledLimit(CLI_TEST_MS) }, async () => {
    const file = flowFile('bad.flow.yaml', `name: Bad\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - do: Open \${nowhere}\n  - clik: the button\n`);
    const run = await runFlow([file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bad.flow.yaml:4:');
    expect(run.stderr).toContain('nowhere');
    expect(run.stderr).toMatch(/bad\.flow\.yaml:5:5: .*clik/);
    expect(model.requests).toHaveLength(0);
  });

  it('refuses bad flags with exit 2 and says what was expected', { timeout: scaledLimit(CLI_TEST_MS) }, async () => {
    const file = flowFile('checkout.flow.yaml', CHECKOUT);
    for (const [flags, message] of [
      [['--shard', '3/2'], /--shard: expected I\/N/],
      [['--concurrency', 'many'], /--concurrency: expected a whole number/],
      [['--var', 'no-equals'], /--var .*expected NAME=VALUE/],
      [['--out', join(folder, 'missing', 'out.json')], /--out: the folder .* does not exist/],
      [['--report', join(folder, 'missing', 'report.html')], /--report: the folder .* does not exist/],
    ] as const) {
      const run = await runFlow([file, ...flags]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    expect(model.requests).toHaveLength(0);
  });
});
