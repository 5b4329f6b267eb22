/**
 * The browser opens only web pages when no URL pattern is set (issue 33, finding 14): in real Chromium, a
 * script's goto (the SDK, a flow's `goto:` step) to chrome://, data:, view-source:, javascript:, blob: or an
 * about: page other than about:blank is refused before the browser is asked, the page stays where it was,
 * and http(s) still opens. A page that opens a document of its own making in a new tab (a blob: URL, which
 * Chromium lets a page open) sees that tab closed after the action, and the model is told.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sightline, StepFailedError, type SightlineAgent } from '../../src/main/automation/index.js';
import { runCli } from '../../src/main/cli/program.js';
import { AgentEventSchema } from '../../src/shared/events.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const COVER = 'position:fixed;inset:0;display:block;font-size:40px';
const PAGES: Record<string, string> = {
  '/start': '<h1>The start page</h1>',
  '/next': '<h1>The next page</h1>',
  '/secret': '<h1>A page only its source view should have asked for</h1>',
  // A click anywhere opens, in a new tab, a document the page made itself.
  '/blob-popup': `<a id="open" href="#" style="${COVER}">Open</a><script>document.getElementById('open').addEventListener('click', (event) => {
    event.preventDefault();
    window.open(URL.createObjectURL(new Blob(['<h1>Made up by the page</h1>'], { type: 'text/html' })), '_blank');
  });</script>`,
};

let site: { origin: string; hits: string[]; server: Server };
let model: FakeOpenAiServer;
let home: TemporaryHome;

beforeAll(async () => {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const page = PAGES[request.url ?? ''] ?? '<p>Not here.</p>';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${page}</body></html>`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  site = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-web-schemes');
  // No agent.allowedUrls, no agent.blockedUrls: the finding was about the browser without a pattern list.
  writeFileSync(home.configFile, JSON.stringify({ agent: {} }));
});

afterAll(async () => {
  await new Promise<void>((done) => site?.server.close(() => done()));
  await model?.close();
  home?.remove();
});

describe('without a URL pattern list, goto', () => {
  let agent: SightlineAgent | undefined;

  afterAll(async () => {
    await agent?.close();
  });

  it('refuses every URL that is not a web page, and still opens http(s)', { timeout: 120_000 }, async () => {
    agent = await Sightline.launch({ home: home.root, env: {}, baseUrl: model.baseUrl, url: `${site.origin}/start` });
    const refused = [
      'chrome://version',
      'chrome://settings',
      `data:text/html,<h1>Made up</h1><script>document.title='made up'</script>`,
      `view-source:${site.origin}/secret`,
      'javascript:document.body.innerHTML="changed"',
      'about:version',
      `blob:${site.origin}/0d1e0f2a-0000-4000-8000-000000000000`,
      'devtools://devtools/bundled/inspector.html',
    ];
    for (const url of refused) {
      const refusal = await agent.goto(url).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal, url).toBeInstanceOf(StepFailedError);
      expect((refusal as Error).message, url).toMatch(/URL, and the browser opens only http\(s\) pages \(and file: ones with agent\.allowFileUrls\)/);
    }
    // view-source: would have fetched the page to show its source.
    expect(site.hits.filter((hit) => hit.includes('/secret'))).toEqual([]);

    await agent.goto(`${site.origin}/next`);
    expect(site.hits).toContain('GET /next');
    const steps = agent.steps.filter((step) => step.kind === 'goto');
    expect(steps.map((step) => step.status)).toEqual([...refused.map(() => 'failed'), 'passed']);
  });
});

describe('a page that opens a document of its own making in a new tab', () => {
  it('has the tab closed after the action, and the model is told', { timeout: 120_000 }, async () => {
    const requests: RequestSummary[] = [];
    model.script(
      scriptedMoves(
        [{ action: { action: 'click', x: 300, y: 300 }, thought: 'Opening it.' }, { finish: 'Done.' }],
        (summary) => requests.push(summary),
      ),
    );
    const io = captureIo();
    const exitCode = await runCli(
      ['--home', home.root, 'run', 'Open the document', '--operator', 'browser', '--url', `${site.origin}/blob-popup`, '--base-url', model.baseUrl, '--json'],
      io,
    );
    expect(exitCode, io.output.stderr).toBe(0);
    const events = io.output.stdout.split('\n').filter((line) => line !== '').map((line) => AgentEventSchema.parse(JSON.parse(line)));
    expect(events.some((event) => event.type === 'step')).toBe(true);
    // The click's tool result, in the model's next request, says the tab was left and why.
    expect(requests[1]!.text).toMatch(/The browser did not stay on blob:http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+: .*is a blob: URL, and the browser opens only http\(s\) pages/);
    expect(requests[1]!.text).toContain('it closed the tab');
  });
});
