/**
 * Settle by watching, end to end on the system Chromium: a click starts a 300 ms CSS transition (a box that
 * changes colour and slides), and the screenshot the computer tool returns, as stored, shows the transition's
 * end state, every time. A click that fetches what it draws from a slow server is shown once drawn, and a
 * spinner that never stops is taken at the cap and marked so.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import { performComputerAction } from '../../src/main/agent/tools/computer-tool.js';
import type { ToolCallScope } from '../../src/main/agent/tools/tool-definition.js';
import { BrowserOperator } from '../../src/main/operators/browser-operator.js';
import type { RawImage } from '../../src/main/perception/frame.js';
import { decodeImageBytes } from '../../src/main/perception/image-encoding.js';
import { SETTLE_TIMING } from '../../src/main/perception/settle-watch.js';
import type { Storage } from '../../src/main/storage/index.js';
import { startDispatchTurn } from '../helpers/hostile-turns.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { hasBrowser } from '../helpers/browser-agent.js';

const VIEWPORT = { width: 1280, height: 800 };
const SLOW_RESPONSE_MS = 600;
const ITERATIONS = 6;

// The box's colour moves linearly, so any frame before the end is visibly not the end colour; its slide
// eases out, so it is also still moving (a pixel or more per frame) until late in the transition.
const PAGE = `<!doctype html>
<html><head><title>settle test</title><style>
  body { margin: 0; background: rgb(255, 255, 255); }
  button { position: absolute; width: 160px; height: 50px; }
  #toggle { left: 40px; top: 40px; }
  #load { left: 240px; top: 40px; }
  #spin { left: 440px; top: 40px; }
  #box { position: absolute; left: 100px; top: 200px; width: 200px; height: 100px; background: rgb(255, 0, 0);
         transition: background-color 300ms linear, transform 300ms ease-out; }
  #box.on { background: rgb(0, 0, 255); transform: translateX(400px); }
  #result { position: absolute; left: 100px; top: 400px; width: 200px; height: 100px; background: rgb(200, 200, 200); }
  #spinner { position: absolute; left: 700px; top: 400px; width: 100px; height: 100px; background: rgb(0, 128, 0); display: none;
             border-top: 20px solid rgb(0, 0, 0); animation: turn 2000ms linear infinite; }
  @keyframes turn { from { transform: rotate(0deg); } to { transform: rotate(360deg); } }
</style></head><body>
  <button id="toggle">toggle</button>
  <button id="load">load</button>
  <button id="spin">spin</button>
  <div id="box"></div>
  <div id="result"></div>
  <div id="spinner"></div>
<script>
  document.getElementById('toggle').addEventListener('click', () => document.getElementById('box').classList.toggle('on'));
  document.getElementById('load').addEventListener('click', async () => {
    const colour = await (await fetch('/slow')).text();
    document.getElementById('result').style.background = colour;
  });
  document.getElementById('spin').addEventListener('click', () => { document.getElementById('spinner').style.display = 'block'; });
</script></body></html>`;

let server: Server;
let operator: BrowserOperator | undefined;
let home: TemporaryHome;
let storage: Storage;
let screen: ScreenRecorder;
let scope: ToolCallScope;

beforeAll(async () => {
  if (!hasBrowser) return;
  server = createServer((request, response) => {
    if (request.url === '/slow') {
      // The scenario, not a synchronisation: data that arrives well after the click.
      setTimeout(() => response.end('rgb(0, 160, 0)'), SLOW_RESPONSE_MS);
      return;
    }
    response.setHeader('content-type', 'text/html');
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  operator = await BrowserOperator.launch({ url: `${origin}/`, viewport: VIEWPORT });
  home = createTemporaryHome('sightline-settle-e2e');
  storage = openHomeStorage(home);
  const emit = createEventEmitter(() => undefined, (text) => text);
  screen = new ScreenRecorder({
    operator,
    storage,
    dedup: DEFAULT_CONFIG.perception.dedup,
    emit,
    settle: { ...SETTLE_TIMING, maxMs: DEFAULT_CONFIG.perception.settle.maxMs },
  });
  scope = await startDispatchTurn(storage, screen, emit, { operator: 'browser', model: 'fake', size: VIEWPORT });
});

afterAll(async () => {
  await operator?.close();
  storage?.close();
  home?.remove();
  if (server) await new Promise((resolve) => server.close(resolve));
});

interface Shown {
  image: RawImage;
  settle: { settled: boolean; waitedMs: number; frames: number };
  texts: string[];
}

/** Clicks at a CSS point (the model's image is the frame, 1:1) and reads back the screenshot as stored. */
async function clickAndShow(x: number, y: number): Promise<Shown> {
  const action: ComputerAction = { action: 'click', x, y };
  const result = await performComputerAction(action, scope, { operator: operator!, screen, policy: 'never', confirm: async () => true });
  const recorded = result.record?.result as { screenshotImageId?: string; settle: Shown['settle'] };
  expect(recorded.screenshotImageId, JSON.stringify(result.record)).toBeDefined();
  const read = await storage.images.read(recorded.screenshotImageId!);
  if (read.status !== 'ok') throw new Error(read.message);
  const texts = result.parts.filter((part) => part.type === 'text').map((part) => part.text);
  return { image: await decodeImageBytes(read.bytes), settle: recorded.settle, texts };
}

function colourAt(image: RawImage, x: number, y: number): [number, number, number] {
  const at = (y * image.width + x) * 4;
  return [image.rgba[at]!, image.rgba[at + 1]!, image.rgba[at + 2]!];
}

describe.skipIf(!hasBrowser)('settle by watching, in a real browser', () => {
  it(`shows the end state of a 300 ms transition after every click (${ITERATIONS} clicks)`, { timeout: 60_000 }, async () => {
    const seen: string[] = [];
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const shown = await clickAndShow(120, 65);
      const on = iteration % 2 === 0;
      const where = `click ${iteration + 1}, settled ${shown.settle.settled} after ${shown.settle.waitedMs} ms, ${shown.settle.frames} frames`;
      seen.push(where);
      expect(shown.settle.settled, where).toBe(true);
      // The box's centre at its end place has the end colour; its other place shows the page.
      const endPlace = on ? colourAt(shown.image, 600, 250) : colourAt(shown.image, 200, 250);
      const otherPlace = on ? colourAt(shown.image, 200, 250) : colourAt(shown.image, 600, 250);
      expect(endPlace, where).toEqual(on ? [0, 0, 255] : [255, 0, 0]);
      expect(otherPlace, where).toEqual([255, 255, 255]);
      // Its left edge is where the slide ends, to the pixel.
      const edge = on ? 500 : 100;
      expect(colourAt(shown.image, edge - 1, 250), where).toEqual([255, 255, 255]);
      expect(colourAt(shown.image, edge + 1, 250), where).toEqual(on ? [0, 0, 255] : [255, 0, 0]);
    }
    expect(seen).toHaveLength(ITERATIONS);
  });

  it('shows what a click fetched, once the response has come and been drawn', { timeout: 30_000 }, async () => {
    const shown = await clickAndShow(320, 65);
    expect(colourAt(shown.image, 200, 450)).toEqual([0, 160, 0]);
    expect(shown.settle.waitedMs).toBeGreaterThanOrEqual(SLOW_RESPONSE_MS - 50);
  });

  it('takes a spinner that never stops at the cap, and says so', { timeout: 30_000 }, async () => {
    const shown = await clickAndShow(520, 65);
    expect(shown.settle.settled).toBe(false);
    expect(shown.settle.waitedMs).toBeLessThan(DEFAULT_CONFIG.perception.settle.maxMs);
    expect(shown.settle.frames).toBeGreaterThan(2);
    expect(shown.texts.join('\n')).toContain('the screen was still changing after 3 s');
  });
});
