/**
 * The browser operator on the system Chromium, on a local page served over 127.0.0.1: every action goes
 * through the real path (capture → encodeForModel → model coordinates → mapping → Playwright input), and
 * the page reports what it saw to the server, so the assertions read the page's own state.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { BrowserOperator } from '../../src/main/operators/browser-operator.js';
import type { ModelView } from '../../src/shared/model-view.js';
import { encodeForModel } from '../../src/main/perception/image-encoding.js';
import { hasBrowser } from '../helpers/browser-agent.js';

// Every element at a fixed place in CSS pixels; each reports its events to the server with a sequence number.
const PAGE = `<!doctype html>
<html><head><title>operator test</title><style>
  body { margin: 0; font: 16px sans-serif; }
  #pad, #scroller, #double, #context, button, input { position: absolute; box-sizing: border-box; }
  button { left: 100px; top: 100px; width: 200px; height: 60px; }
  #name { left: 100px; top: 200px; width: 300px; height: 40px; }
  #secret { left: 100px; top: 260px; width: 300px; height: 40px; }
  #double { left: 100px; top: 420px; width: 200px; height: 60px; background: #cce; }
  #context { left: 400px; top: 420px; width: 200px; height: 60px; background: #cec; }
  #pad { left: 600px; top: 100px; width: 400px; height: 300px; background: #eee; }
  #scroller { left: 700px; top: 450px; width: 300px; height: 200px; overflow: auto; }
  #scroller div { height: 3000px; background: linear-gradient(#fff, #000); }
  a { position: absolute; left: 100px; top: 600px; }
</style></head><body>
  <button id="press">Press me</button>
  <input id="name" type="text">
  <input id="secret" type="password">
  <div id="double">double</div>
  <div id="context">context</div>
  <div id="pad"></div>
  <div id="scroller"><div></div></div>
  <a id="popup" href="/second" target="_blank">second page</a>
<script>
  let sequence = 0;
  function report(event) { fetch('/event', { method: 'POST', body: JSON.stringify({ sequence: sequence++, ...event }) }); }
  // Pointer moves since the test last zeroed them, and whether the pointer was over the button when it was pressed.
  window.moves = 0;
  let over = false;
  let atDown = {};
  document.addEventListener('pointermove', () => window.moves++);
  document.getElementById('press').addEventListener('pointerenter', () => { over = true; });
  document.getElementById('press').addEventListener('pointerleave', () => { over = false; });
  document.getElementById('press').addEventListener('pointerdown', () => { atDown = { moves: window.moves, over }; });
  document.getElementById('press').addEventListener('click', () => report({ type: 'click', target: 'press', ...atDown }));
  document.getElementById('name').addEventListener('input', (event) => report({ type: 'input', value: event.target.value }));
  document.getElementById('double').addEventListener('dblclick', () => report({ type: 'dblclick' }));
  document.getElementById('double').addEventListener('click', (event) => { if (event.detail === 3) report({ type: 'tripleclick' }); });
  document.getElementById('context').addEventListener('auxclick', (event) => report({ type: 'auxclick', button: event.button }));
  document.getElementById('context').addEventListener('click', (event) => report({ type: 'modclick', shift: event.shiftKey, ctrl: event.ctrlKey }));
  document.getElementById('context').addEventListener('contextmenu', (event) => { event.preventDefault(); report({ type: 'contextmenu', button: event.button }); });
  const pad = document.getElementById('pad');
  pad.addEventListener('mousedown', (event) => report({ type: 'mousedown', x: event.clientX, y: event.clientY }));
  pad.addEventListener('mouseup', (event) => report({ type: 'mouseup', x: event.clientX, y: event.clientY }));
  pad.addEventListener('mousemove', (event) => { if (event.buttons === 1) report({ type: 'dragmove', x: event.clientX, y: event.clientY }); });
  const scroller = document.getElementById('scroller');
  scroller.addEventListener('scroll', () => report({ type: 'scroll', top: scroller.scrollTop }));
  scroller.addEventListener('wheel', (event) => report({ type: 'wheel', shift: event.shiftKey, ctrl: event.ctrlKey }));
  window.addEventListener('keydown', (event) => report({ type: 'keydown', key: event.key, at: event.timeStamp }), true);
  window.addEventListener('keyup', (event) => report({ type: 'keyup', key: event.key, at: event.timeStamp }), true);
</script></body></html>`;

interface PageEvent {
  sequence: number;
  type: string;
  [field: string]: unknown;
}

let server: Server;
let origin: string;
let events: PageEvent[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/event') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        events.push(JSON.parse(body) as PageEvent);
        response.end();
      });
      return;
    }
    response.setHeader('content-type', 'text/html');
    response.end(request.url === '/second' ? '<title>second</title><h1>second page</h1>' : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Waits (up to 5 s) until the page has reported an event that matches. */
async function eventually(predicate: (event: PageEvent) => boolean): Promise<PageEvent> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = events.find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such event; the page reported: ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectWithin(event: PageEvent, expected: { x: number; y: number }, tolerance: number): void {
  const point = { x: Number(event.x), y: Number(event.y) };
  expect(Math.abs(point.x - expected.x), JSON.stringify(point)).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(point.y - expected.y), JSON.stringify(point)).toBeLessThanOrEqual(tolerance);
}

/** Captures and encodes as the agent does, and returns how to name a CSS point in the model's image. */
async function showToModel(operator: BrowserOperator, maxEdge: number): Promise<{ view: ModelView; at: (cssX: number, cssY: number) => { x: number; y: number } }> {
  const frame = await operator.capture();
  const image = await encodeForModel(frame, maxEdge);
  const view: ModelView = { frameWidth: frame.width, frameHeight: frame.height, imageWidth: image.width, imageHeight: image.height, coordinateSpace: 'pixels' };
  const imagePerCss = (image.width / frame.width) * frame.scaleFactor;
  return { view, at: (cssX, cssY) => ({ x: Math.round(cssX * imagePerCss), y: Math.round(cssY * imagePerCss) }) };
}

describe.skipIf(!hasBrowser)('browser operator', () => {
  let operator: BrowserOperator;
  let view: ModelView;
  let at: (cssX: number, cssY: number) => { x: number; y: number };
  let interruptListenersBeforeLaunch: number;

  beforeAll(async () => {
    interruptListenersBeforeLaunch = process.listenerCount('SIGINT');
    operator = await BrowserOperator.launch({ url: `${origin}/`, viewport: { width: 1280, height: 800 } });
    // The model sees the 1280x800 page as 640x400: every point goes through the downscale.
    ({ view, at } = await showToModel(operator, 640));
  });

  afterAll(async () => {
    await operator?.close();
  });

  async function run(action: ComputerAction): Promise<void> {
    const result = await operator.execute(action, view);
    expect(result, JSON.stringify(action)).toMatchObject({ ok: true });
  }

  it('leaves Ctrl+C to its caller: launching adds no SIGINT handler', () => {
    // Playwright's default handler would exit the process with 130 before a turn could end as stopped.
    expect(process.listenerCount('SIGINT')).toBe(interruptListenersBeforeLaunch);
  });

  it('describes the page it drives', () => {
    expect(operator.describe()).toEqual({
      kind: 'browser',
      target: `${origin}/`,
      displayId: null,
      url: `${origin}/`,
      screen: { width: 1280, height: 800 },
      scaleFactor: 1,
    });
    expect(view).toMatchObject({ frameWidth: 1280, frameHeight: 800, imageWidth: 640, imageHeight: 400 });
  });

  it('clicks a button', async () => {
    await run({ action: 'click', ...at(200, 130) });
    await eventually((event) => event.type === 'click' && event.target === 'press');
  });

  it('clicks after one or two pointer moves, the pointer already over the target when it is pressed (issue 36)', async () => {
    await run({ action: 'move', ...at(900, 700) });
    expect(await operator.evaluate('window.moves = 0')).toEqual({ ok: true, value: 0 });
    events = [];
    await run({ action: 'click', ...at(200, 130) });
    const click = await eventually((event) => event.type === 'click' && event.target === 'press');
    expect(click.over).toBe(true);
    expect(click.moves).toBeGreaterThanOrEqual(1);
    expect(click.moves).toBeLessThanOrEqual(2);
  });

  it('types into a field, selects all and deletes it with keys, and types again', async () => {
    await run({ action: 'click', ...at(250, 220) });
    expect(await operator.focusedFieldKind()).toBe('text');
    await run({ action: 'type', text: 'hello' });
    await eventually((event) => event.type === 'input' && event.value === 'hello');
    await run({ action: 'key', keys: 'ctrl+a BackSpace' });
    await eventually((event) => event.type === 'input' && event.value === '');
    await run({ action: 'type', text: 'world' });
    await eventually((event) => event.type === 'input' && event.value === 'world');
  });

  it('tells when a password field has the focus', async () => {
    await run({ action: 'click', ...at(250, 280) });
    expect(await operator.focusedFieldKind()).toBe('password');
    await run({ action: 'click', ...at(200, 130) });
    expect(await operator.focusedFieldKind()).toBe('other');
  });

  it('double clicks and right clicks', async () => {
    await run({ action: 'double_click', ...at(200, 450) });
    await eventually((event) => event.type === 'dblclick');
    await run({ action: 'right_click', ...at(500, 450) });
    const contextMenu = await eventually((event) => event.type === 'contextmenu');
    expect(contextMenu.button).toBe(2);
  });

  it('holds modifier keys during a click (shift-click, ctrl-click) and releases them after', async () => {
    await run({ action: 'click', ...at(500, 450), modifiers: 'shift' });
    expect(await eventually((event) => event.type === 'modclick' && event.shift === true)).toMatchObject({ shift: true, ctrl: false });
    await run({ action: 'click', ...at(500, 450), modifiers: 'ctrl' });
    expect(await eventually((event) => event.type === 'modclick' && event.ctrl === true)).toMatchObject({ shift: false, ctrl: true });
    await run({ action: 'click', ...at(500, 450) });
    await eventually((event) => event.type === 'modclick' && event.shift === false && event.ctrl === false);
  });

  it('drags from one point to another with the button held', async () => {
    const from = at(650, 150);
    const to = at(950, 350);
    await run({ action: 'drag', x: from.x, y: from.y, to_x: to.x, to_y: to.y });
    // One model pixel is 2 CSS pixels here: the point lands within the block the model named.
    expectWithin(await eventually((event) => event.type === 'mousedown'), { x: 650, y: 150 }, 1);
    expectWithin(await eventually((event) => event.type === 'mouseup'), { x: 950, y: 350 }, 1);
  });

  it('clicks three times and presses the middle button', async () => {
    await run({ action: 'triple_click', ...at(200, 450) });
    await eventually((event) => event.type === 'tripleclick');
    await run({ action: 'middle_click', ...at(500, 450) });
    // A right click fires auxclick too (button 2): the middle button is button 1.
    const auxiliary = await eventually((event) => event.type === 'auxclick' && event.button === 1);
    expect(auxiliary).toMatchObject({ type: 'auxclick', button: 1 });
  });

  it('drags along a path, through each waypoint with the button held', async () => {
    const from = at(650, 150);
    const corner = at(950, 150);
    const to = at(950, 350);
    await run({ action: 'drag', x: from.x, y: from.y, via: [corner], to_x: to.x, to_y: to.y });
    expectWithin(await eventually((event) => event.type === 'dragmove' && Number(event.x) >= 949 && Number(event.y) <= 151), { x: 950, y: 150 }, 1);
    expectWithin(await eventually((event) => event.type === 'mouseup' && Number(event.y) > 300), { x: 950, y: 350 }, 1);
  });

  it('scrolls the element under the point', async () => {
    await run({ action: 'scroll', ...at(850, 550), scroll_x: 0, scroll_y: 3 });
    await eventually((event) => event.type === 'scroll' && Number(event.top) > 0);
  });

  /** Only the events the page reports from now on (the earlier tests' drags and keys are in `events` too). */
  function from(): (predicate: (event: PageEvent) => boolean) => Promise<PageEvent> {
    const before = events.length;
    return (predicate) => eventually((event) => events.indexOf(event) >= before && predicate(event));
  }

  it('presses, moves and releases the button in separate actions: a drag the page sees', async () => {
    const reported = from();
    await run({ action: 'move', ...at(700, 120) });
    await run({ action: 'mouse_down' });
    await run({ action: 'move', ...at(800, 200) });
    await run({ action: 'mouse_up', ...at(900, 300) });
    expectWithin(await reported((event) => event.type === 'mousedown'), { x: 700, y: 120 }, 1);
    expectWithin(await reported((event) => event.type === 'dragmove' && Number(event.x) >= 799), { x: 800, y: 200 }, 1);
    expectWithin(await reported((event) => event.type === 'mouseup'), { x: 900, y: 300 }, 1);
  });

  it('releases a button left down when the turn ends', async () => {
    const reported = from();
    await run({ action: 'mouse_down', ...at(620, 380) });
    await reported((event) => event.type === 'mousedown');
    await operator.releaseHeldInput();
    expectWithin(await reported((event) => event.type === 'mouseup'), { x: 620, y: 380 }, 1);
    // Released: a new press is not refused as a second one.
    await run({ action: 'mouse_down', ...at(630, 380) });
    await run({ action: 'mouse_up' });
  });

  it('scrolls with shift held during the wheel, and not after', async () => {
    const held = from();
    await run({ action: 'scroll', ...at(850, 550), scroll_x: 0, scroll_y: 1, modifiers: 'shift' });
    expect(await held((event) => event.type === 'wheel')).toMatchObject({ shift: true, ctrl: false });
    const after = from();
    await run({ action: 'scroll', ...at(850, 550), scroll_x: 0, scroll_y: 1 });
    expect(await after((event) => event.type === 'wheel')).toMatchObject({ shift: false, ctrl: false });
  });

  it('holds a key down for the time asked, then releases it', async () => {
    const reported = from();
    await run({ action: 'hold_key', keys: 'shift', seconds: 0.5 });
    const down = await reported((event) => event.type === 'keydown' && event.key === 'Shift');
    const up = await reported((event) => event.type === 'keyup' && event.key === 'Shift');
    expect(Number(up.at) - Number(down.at)).toBeGreaterThanOrEqual(450);
    expect(Number(up.at) - Number(down.at)).toBeLessThan(3000);
  });

  it('refuses a point outside the screenshot and does nothing', async () => {
    const before = events.length;
    const result = await operator.execute({ action: 'click', x: 640, y: 100 }, view);
    expect(result).toEqual({ ok: false, error: 'x=640 is outside the screenshot (0–639). Nothing was done.' });
    const unknownKey = await operator.execute({ action: 'key', keys: 'ctrl+nope' }, view);
    expect(unknownKey.ok).toBe(false);
    expect(!unknownKey.ok && unknownKey.error).toContain('unknown key "nope"');
    // A click that did land would have been reported by now: a click on the button after it is.
    await run({ action: 'click', ...at(200, 130) });
    await eventually((event) => event.type === 'click' && events.indexOf(event) >= before);
    expect(events.slice(before).map((event) => event.type)).toEqual(['click']);
  });

  it('follows a link that opens a new tab', async () => {
    await run({ action: 'click', ...at(140, 608) });
    const deadline = Date.now() + 5000;
    while (!operator.describe().url?.endsWith('/second') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(operator.describe().url).toBe(`${origin}/second`);
  });
});

describe.skipIf(!hasBrowser)('browser operator on a HiDPI page', () => {
  it('maps points through devicePixelRatio 2', async () => {
    events = [];
    const operator = await BrowserOperator.launch({ url: `${origin}/`, viewport: { width: 800, height: 700 }, deviceScaleFactor: 2 });
    try {
      const { view, at } = await showToModel(operator, 1000);
      expect(view).toMatchObject({ frameWidth: 1600, frameHeight: 1400, imageWidth: 1000, imageHeight: 875 });
      expect(operator.describe()).toMatchObject({ screen: { width: 800, height: 700 }, scaleFactor: 2 });
      const from = at(610, 110);
      const to = at(790, 390);
      expect(await operator.execute({ action: 'drag', x: from.x, y: from.y, to_x: to.x, to_y: to.y }, view)).toMatchObject({ ok: true });
      // One model pixel is 1.6 frame pixels, 0.8 CSS pixels: the point lands on the CSS pixel named.
      expectWithin(await eventually((event) => event.type === 'mousedown'), { x: 610, y: 110 }, 0);
      expectWithin(await eventually((event) => event.type === 'mouseup'), { x: 790, y: 390 }, 0);
    } finally {
      await operator.close();
    }
  });
});
