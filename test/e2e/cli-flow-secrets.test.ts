/**
 * Issue 33, findings 9, 10, 18 and 19, as a user meets them: `sightline flow` (and `sightline run`) in a real
 * process, a real Chromium on a local page that reports what was typed into it, the fake OpenAI server as the
 * model. Every way out is searched for the secret: the terminal, `--json` events, `--out`, `--junit`, `--report`
 * and every row of the home's database.
 *
 * - 9: a step line is redacted before it is cut, so no part of a configured key is printed.
 * - 10: a declared secret shorter than 4 characters is refused before anything runs, naming it, never quoting
 *   it; one of 4 characters (a PIN) is masked wherever the model echoes it.
 * - 18: a URL's password (`target.url`, `goto:`, `run --url`) is masked everywhere; the user and host stay.
 * - 19: a secret is typed only in a step that names it; typing its placeholder in another step (or through an
 *   extracted value) is refused, the model is told why, and the page gets nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { everythingStored } from '../helpers/raw-database.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';

/** A text field at (250, 120) that reports every value it holds to the server: what was really typed. */
const TYPING_PAGE = `<!doctype html><html><head><title>Shop</title><style>
  body { margin: 0; font: 20px sans-serif; }
  #name { position: absolute; left: 100px; top: 100px; width: 300px; height: 40px; font-size: 20px; }
</style></head><body>
  <input id="name" autocomplete="off" aria-label="Search"
    oninput="fetch('/seen', { method: 'POST', body: this.value })">
  <div style="position: absolute; left: 100px; top: 200px">Hint: {{SHOP_PASSWORD}}</div>
</body></html>`;
const FIELD = { x: 250, y: 120 };

let server: Server;
let pageUrl: string;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push(body);
        response.end();
      });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(TYPING_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  pageUrl = `http://127.0.0.1:${port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;

beforeEach(async () => {
  seen.length = 0;
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-flow-secrets');
  folder = mkdtempSync(join(tmpdir(), 'sightline-flow-secrets-files-'));
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
  return runSightlineProcess(['--home', home.root, 'flow', ...args, '--base-url', model.baseUrl], { PAGE_URL: pageUrl, ...env });
}

/** What a run printed and wrote: the terminal, the events, --out, --junit and --report, and the database. */
function everythingWritten(run: { stdout: string; stderr: string }, files: readonly string[]): string {
  return [run.stdout, run.stderr, ...files.map((file) => readFileSync(file, 'utf8')), everythingStored(home.databaseFile)].join('\n');
}

function outputFiles(): { out: string; junit: string; report: string; args: string[] } {
  const out = join(folder, 'out.json');
  const junit = join(folder, 'junit.xml');
  const report = join(folder, 'report.html');
  return { out, junit, report, args: ['--out', out, '--junit', junit, '--report', report, '--json'] };
}

describe('sightline flow keeps secrets out of what it prints and stores', () => {
  it('finding 9: a step line carrying a configured key is redacted before it is cut, not after', { timeout: 180_000 }, async () => {
    const key = 'sk-test-0123456789abcdefghij';
    // The key starts at the 78th character of the step's text: a line cut at 100 would keep 22 of its 28.
    const filler = 'Open the page and read the notice that explains how to connect the account with';
    const file = flowFile('notice.flow.yaml', `name: Notice\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - do: "${filler} ${key} as the token"\n`);
    model.script(scriptedMoves([{ finish: 'Read it.' }]));
    const run = await runFlow([file], { OPENAI_API_KEY: key });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(filler.slice(0, 40));
    expect(run.stderr).toContain('[redacted]');
    expect(run.stderr).not.toContain(key.slice(0, 12));
    expect(run.stderr).not.toContain(key.slice(8, 20));
  });

  it('finding 10: a secret shorter than 4 characters is refused before anything runs, named, never quoted', { timeout: 120_000 }, async () => {
    const file = flowFile('pin.flow.yaml', `name: Pin\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsecrets: [CARD_PIN]\nsteps:\n  - do: Type \${CARD_PIN} into the field\n`);
    const run = await runFlow([file], { CARD_PIN: 'zq7' });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/pin\.flow\.yaml:3:\d+: secret CARD_PIN is shorter than 4 characters/);
    expect(run.stderr).not.toContain('zq7');
    expect(model.requests).toHaveLength(0);
  });

  it('finding 10: a 4-character secret the model echoes is masked in every output and every row', { timeout: 180_000 }, async () => {
    const pin = 'zq47';
    const file = flowFile('pin.flow.yaml', `name: Pin\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsecrets: [CARD_PIN]\nsteps:\n  - do: Type \${CARD_PIN} into the field\n`);
    model.script(
      scriptedMoves([
        { action: { action: 'click', ...FIELD } },
        { action: { action: 'type', text: '{{CARD_PIN}}' }, thought: `The PIN is ${pin}, I type its placeholder.` },
        { finish: `Typed ${pin} into the field.` },
      ]),
    );
    const outputs = outputFiles();
    const run = await runFlow([file, ...outputs.args], { CARD_PIN: pin });
    expect(run.code, run.stderr).toBe(0);
    expect(seen.at(-1)).toBe(pin);
    const everything = everythingWritten(run, [outputs.out, outputs.junit, outputs.report]);
    expect(everything).toContain('Typed [redacted] into the field.');
    // Standing alone: base64 images and ids may hold the four characters inside longer runs.
    expect(everything).not.toMatch(new RegExp(`(?<![A-Za-z0-9])${pin}(?![A-Za-z0-9])`, 'i'));
  });

  it('finding 18: a password in target.url and in a goto URL is masked everywhere; the user and host stay', { timeout: 180_000 }, async () => {
    const targetUrl = `http://shopper:hunter2-target@127.0.0.1:${port}/`;
    const gotoUrl = `http://buyer:open-sesame-goto@127.0.0.1:${port}/checkout`;
    const file = flowFile(
      'login.flow.yaml',
      `name: Login\ntarget: { operator: browser, url: "${targetUrl}" }\nsteps:\n  - goto: ${gotoUrl}\n  - do: Read the page\n  - goto: "\${env.BROKEN_URL}"\n`,
    );
    model.script(scriptedMoves([{ finish: `Read ${gotoUrl}.` }]));
    const outputs = outputFiles();
    // A URL that cannot be opened fails its step: the error quotes the URL too.
    const run = await runFlow([file, ...outputs.args], { BROKEN_URL: 'http://admin:s3cret-broken@127.0.0.1:9/' });
    expect(run.code, run.stderr).toBe(1);
    const everything = everythingWritten(run, [outputs.out, outputs.junit, outputs.report]);
    for (const password of ['hunter2-target', 'open-sesame-goto', 's3cret-broken']) expect(everything).not.toContain(password);
    const out = readFileSync(outputs.out, 'utf8');
    expect(out).toContain(`http://buyer:[redacted]@127.0.0.1:${port}/checkout`);
    expect(run.stderr).toContain('admin:[redacted]@127.0.0.1:9');
  });

  it('finding 19: a secret is typed only in a step that names it; elsewhere its placeholder is refused and the model told', { timeout: 240_000 }, async () => {
    const secret = 'open-sesame-4471';
    const file = flowFile(
      'scoped.flow.yaml',
      [
        'name: Scoped',
        'target: { operator: browser, url: "${env.PAGE_URL}" }',
        'secrets: [SHOP_PASSWORD]',
        'steps:',
        '  - do: Search the shop for shoes',
        '  - extract: the hint under the field',
        '    as: hint',
        '    schema: { type: object, properties: { text: { type: string } }, required: [text] }',
        '  - do: Type ${hint.text} into the field',
        '  - do: Type ${SHOP_PASSWORD} into the field',
        '',
      ].join('\n'),
    );
    model.script(
      scriptedMoves([
        // Step 1 does not name the secret: the page's hint talks the model into typing its placeholder.
        { action: { action: 'click', ...FIELD } },
        { action: { action: 'type', text: '{{SHOP_PASSWORD}}' } },
        { finish: 'Could not type it.' },
        // Step 2 reads the placeholder off the page, and step 3 uses what was read.
        { tool: 'answer', arguments: { value: { text: '{{SHOP_PASSWORD}}' }, reason: 'The hint reads so.', evidence: [] } },
        { action: { action: 'type', text: '{{SHOP_PASSWORD}}' } },
        { finish: 'Could not type it.' },
        // Step 4 names the secret: typed.
        { action: { action: 'type', text: '{{SHOP_PASSWORD}}' } },
        { finish: 'Typed the password.' },
      ]),
    );
    const outputs = outputFiles();
    const run = await runFlow([file, ...outputs.args], { SHOP_PASSWORD: secret });
    expect(run.code, run.stderr).toBe(0);
    // Typed once, in step 4; typed in steps 1 and 3 too, the field would hold it three times.
    expect(seen.some((value) => value.includes(secret))).toBe(true);
    expect(seen.filter((value) => value.split(secret).length > 2)).toEqual([]);
    // The model was told, in the refused action's result, why nothing was typed.
    const told = model.requests.map((request) => request.rawBody).filter((body) => body.includes('this step does not name'));
    expect(told.length).toBeGreaterThanOrEqual(2);
    const report = JSON.parse(readFileSync(outputs.out, 'utf8')) as { flows: Array<{ steps: Array<{ text?: string; value?: unknown }> }> };
    const [, extracted, typed] = report.flows[0]!.steps;
    // The value as it was read, and the step that used it without naming the secret.
    expect(extracted!.value).toEqual({ text: '{{SHOP_PASSWORD}}' });
    expect(typed!.text).toBe('Type { {SHOP_PASSWORD} } into the field');
    expect(everythingWritten(run, [outputs.out, outputs.junit, outputs.report])).not.toContain(secret);
  });
});

describe('sightline run keeps a URL password and a cut key out of what it prints and stores', () => {
  it('finding 18: run --url with credentials; finding 9: a session title cut across a configured key', { timeout: 180_000 }, async () => {
    const url = `http://shopper:hunter2-run@127.0.0.1:${port}/`;
    const key = 'sk-test-0123456789abcdefghij';
    // The session's title is the request cut to 80 characters: 11 of the key's would be left before the ellipsis.
    const task = `${'Look at the page and tell me what the notice says about the tokens'} ${key} here`;
    model.script(scriptedMoves([{ finish: `Opened ${url}.` }]));
    const run = await runSightlineProcess(['--home', home.root, 'run', task, '--operator', 'browser', '--url', url, '--base-url', model.baseUrl, '--json'], { OPENAI_API_KEY: key });
    expect(run.code, run.stderr).toBe(0);
    const everything = everythingWritten(run, []);
    expect(everything).not.toContain('hunter2-run');
    expect(everything).toContain(`shopper:[redacted]@127.0.0.1:${port}`);
    expect(everything).not.toContain(key.slice(0, 10));
    expect(everything).toContain('the tokens [redacted]…');
  });
});
