/**
 * Midscene scripts run as they are (issue 35, part 1), through `sightline flow` as a user runs it: a real process, a
 * real Chromium, the fake OpenAI server as the model. test/fixtures/midscene/served-shop/served-shop.yaml serves its
 * own folder, sizes the browser, sets its user agent, headers and cookies, and gives the model a context; the page
 * reports to this test what its browser was, and the model's requests show what it was told and shown.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';
import { scaledLimit } from '../helpers/time-limits.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/midscene');

/** What the page reported of itself, and the headers its browser sent with the image request. */
let reports: unknown[] = [];
let pixelHeaders: IncomingHttpHeaders[] = [];
let reportServer: Server;
let reportPort: number;

beforeAll(async () => {
  reportServer = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/report') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        reports.push(JSON.parse(body));
        response.writeHead(204).end();
      });
      return;
    }
    if (request.url === '/pixel.png') pixelHeaders.push(request.headers);
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => reportServer.listen(0, '127.0.0.1', done));
  reportPort = (reportServer.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((done) => reportServer.close(() => done()));
});

let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;

beforeEach(async () => {
  reports = [];
  pixelHeaders = [];
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-midscene-flow');
  folder = mkdtempSync(join(tmpdir(), 'sightline-midscene-served-'));
  // Each script with its own site folder, as it is kept in test/fixtures/midscene.
  for (const name of ['served-shop', 'javascript-page', 'upload-page', 'report-notes', 'locate-page']) cpSync(join(FIXTURES, name), join(folder, name), { recursive: true });
});

afterEach(async () => {
  await model.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

/** The width and height of a PNG given as base64 (its IHDR chunk). */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64.slice(0, 64), 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('a Midscene web script with serve:, browser options and aiActionContext', () => {
  it('serves its folder, opens the page with its size, user agent, headers and cookies, and tells the model its context', { timeout: scaledLimit(180_000) }, async () => {
    const seen: RequestSummary[] = [];
    const screenshots: string[] = [];
    model.script(
      scriptedMoves(
        [
          { tool: 'answer', arguments: { verdict: true, reason: 'The heading says the shop is open.', evidence: [] } },
          { finish: 'Clicked Add to cart.' },
          { finish: 'Cleared the quantity.' },
          { finish: 'Dragged the lamp to the cart.' },
        ],
        (summary) => void seen.push(summary),
      ),
    );
    const run = await runSightlineProcess(['--home', home.root, 'flow', join(folder, 'served-shop', 'served-shop.yaml'), '--base-url', model.baseUrl], { REPORT_PORT: String(reportPort) });
    expect(run.code, run.stderr).toBe(0);

    // The page was served from the script's folder and saw the browser the script asked for.
    expect(reports).toEqual([{ width: 800, height: 600, ratio: 1, userAgent: 'SightlineMidsceneTest/1.0 (a made-up browser)', cookie: 'session=logged-in-as-ada' }]);
    expect(pixelHeaders).toHaveLength(1);
    expect(pixelHeaders[0]).toMatchObject({ 'user-agent': 'SightlineMidsceneTest/1.0 (a made-up browser)', 'x-midscene-test': 'yes-please', cookie: 'session=logged-in-as-ada' });

    // Screenshots follow the viewport: the model saw 800x600 frames.
    for (const request of model.requests) {
      const match = /data:image\/png;base64,([A-Za-z0-9+/=]{64})/.exec(request.rawBody);
      if (match?.[1] !== undefined) screenshots.push(match[1]);
    }
    expect(screenshots.length).toBeGreaterThan(0);
    for (const screenshot of screenshots) expect(pngSize(screenshot)).toEqual({ width: 800, height: 600 });

    // Every step told the model the script's context; each item became the step Midscene's docs describe.
    expect(seen).toHaveLength(4);
    for (const summary of seen) expect(summary.text).toContain('Context for every step of this script: The shop is a test page; never press Pay.');
    expect(seen[1]!.text).toContain('Click the Add to cart button');
    expect(seen[2]!.text).toContain('Clear the quantity field');
    expect(seen[3]!.text).toContain('Drag the lamp picture and drop it onto the cart');

    // What was read and ignored is said once, before the steps, one line each.
    expect(run.stderr).toContain('note: web waitForNetworkIdle (line 18) is ignored: Sightline waits for the page to settle after each action');
    expect(run.stderr).toContain('note: web forceSameTabNavigation (line 20) is ignored');
    expect(run.stderr).toContain('note: aiTap deepThink (line 31) is ignored');
    expect(run.stderr).toContain('note: aiTap xpath (line 32) is ignored: Sightline acts on what the screen shows, not on the DOM');
    expect(run.stderr).toContain('note: aiAssert errorMessage (line 27) is ignored');
    expect(run.stderr).toContain('note: aiDragAndDrop planningStrategy (line 37) is ignored');
  });
});

describe('javascript:', () => {
  it('runs the script\'s own code in the page, never through the model, and keeps each value under its name', { timeout: scaledLimit(180_000) }, async () => {
    const out = join(folder, 'out.json');
    const run = await runSightlineProcess(['--home', home.root, 'flow', join(folder, 'javascript-page', 'javascript-page.yaml'), '--out', out, '--base-url', model.baseUrl]);
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ steps: Array<{ label: string; kind: string; status: string; value?: unknown; as?: string }> }> };
    expect(report.flows[0]!.steps.map(({ label, kind, status, value, as }) => ({ label, kind, status, value, as }))).toEqual([
      { label: 'change and read the page', kind: 'group', status: 'passed', value: undefined, as: undefined },
      { label: 'javascript', kind: 'javascript', status: 'passed', value: 3, as: 'itemCount' },
      { label: 'javascript', kind: 'javascript', status: 'passed', value: { heading: 'Changed by the script', href: '/index.html' }, as: 'page' },
    ]);
  });

  it('passes the confirmation gate: under --confirm always, with no one to ask, it is refused and does not run', { timeout: scaledLimit(180_000) }, async () => {
    const out = join(folder, 'out.json');
    const run = await runSightlineProcess(['--home', home.root, 'flow', join(folder, 'javascript-page', 'javascript-page.yaml'), '--out', out, '--confirm', 'always', '--base-url', model.baseUrl]);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ steps: Array<{ kind: string; status: string; reason?: string }> }> };
    // The task (a group) says that a step inside it failed (issue 35's continue_on_error fixes).
    expect(report.flows[0]!.steps.map(({ kind, status }) => [kind, status])).toEqual([
      ['group', 'failed'],
      ['javascript', 'failed'],
      ['javascript', 'skipped'],
    ]);
    expect(report.flows[0]!.steps[1]!.reason).toBe('running the javascript was refused');
  });
});

describe('fileChooserAccept', () => {
  it('gives the file chooser the tap opens the script\'s file', { timeout: scaledLimit(180_000) }, async () => {
    model.script(scriptedMoves([{ action: { action: 'click', x: 300, y: 150 } }, { finish: 'Chose the file.' }]));
    const run = await runSightlineProcess(['--home', home.root, 'flow', join(folder, 'upload-page', 'upload-page.yaml'), '--base-url', model.baseUrl], { REPORT_PORT: String(reportPort) });
    expect(run.code, run.stderr).toBe(0);
    expect(reports).toEqual([{ name: 'note.txt', text: 'hello from the script folder\n' }]);
  });
});

describe('recordToReport and logScreenshot', () => {
  it('keep the screen at that point under their title, without the model: a step in --out and JUnit, its frame in the report', { timeout: scaledLimit(180_000) }, async () => {
    const out = join(folder, 'out.json');
    const junit = join(folder, 'junit.xml');
    const html = join(folder, 'report.html');
    const run = await runSightlineProcess(['--home', home.root, 'flow', join(folder, 'report-notes', 'report-notes.yaml'), '--out', out, '--junit', junit, '--report', html, '--base-url', model.baseUrl]);
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(0);
    expect(`${run.stdout}${run.stderr}`).toContain('Order confirmation: the order number is on the page');
    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ steps: Array<{ label: string; kind: string; status: string; text?: string; evidence: string[] }> }> };
    const steps = report.flows[0]!.steps;
    expect(steps.map(({ label, kind, status, text }) => ({ label, kind, status, text }))).toEqual([
      { label: 'keep the confirmation', kind: 'group', status: 'passed', text: 'keep the confirmation' },
      { label: 'recordToReport', kind: 'note', status: 'passed', text: 'Order confirmation: the order number is on the page' },
      { label: 'logScreenshot', kind: 'note', status: 'passed', text: 'After the order' },
    ]);
    const frames = steps.slice(1).map((step) => step.evidence);
    for (const evidence of frames) expect(evidence).toHaveLength(1);
    expect(readFileSync(junit, 'utf8')).toContain('Order confirmation');
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('Order confirmation: the order number is on the page');
    for (const [imageId] of frames) expect(page).toContain(imageId!);
    // Cited as evidence, each frame is embedded as it was stored: a PNG of the page.
    expect(page).toContain('data:image/png;base64,');
  });
});

describe('aiLocate', () => {
  it('answers the element\'s rect and center in page coordinates, mapped from the image the model saw, under its name', { timeout: scaledLimit(180_000) }, async () => {
    const shown: Array<{ width: number; height: number }> = [];
    // The model boxes the button on the image it was shown: the page's CSS box (200,100 to 320,140 of 1000x600) in
    // that image's pixels, whatever size the frame was scaled to.
    model.script([
      (request) => {
        const images = [...request.rawBody.matchAll(/data:image\/png;base64,([A-Za-z0-9+/=]{64})/g)];
        const size = pngSize(images.at(-1)![1]!);
        shown.push(size);
        const k = size.width / 1000;
        const box = [200 * k, 100 * k, 320 * k, 140 * k];
        return { type: 'answer', toolCalls: [{ name: 'answer', arguments: JSON.stringify({ box, reason: 'The green Buy button.', evidence: [] }) }] };
      },
    ]);
    const out = join(folder, 'out.json');
    const run = await runSightlineProcess(['--home', home.root, 'flow', join(folder, 'locate-page', 'locate-page.yaml'), '--out', out, '--base-url', model.baseUrl]);
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(1);
    expect(shown[0]!.width / shown[0]!.height).toBeCloseTo(1000 / 600, 2);
    expect(run.stderr).toContain('note: aiLocate deepThink (line 20) is ignored');
    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ steps: Array<{ label: string; kind: string; status: string; value?: unknown; as?: string; costUnknown?: boolean; costDollars?: number }> }> };
    const step = report.flows[0]!.steps[1]!;
    expect({ label: step.label, kind: step.kind, status: step.status, as: step.as }).toEqual({ label: 'aiLocate', kind: 'locate', status: 'passed', as: 'buyButton' });
    // Midscene's shape, in CSS pixels of the page (the frame was 2000x1200 at dpr 2).
    expect(step.value).toEqual({ rect: { left: 200, top: 100, width: 120, height: 40 }, center: [260, 120], dpr: 2 });
    // A model call like any: it is priced.
    expect(step.costDollars !== undefined || step.costUnknown === true).toBe(true);
  });
});
