/**
 * One row of the per-step overhead bench (bench/step-overhead.ts): the pages, and the steps timed on one
 * operator with the settle watched or with the old fixed sleep. Shared by the section and by the child
 * process that measures the desktop on Xvfb (desktop-step-overhead.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { userText } from '../../src/shared/messages.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import { recordToolStep } from '../../src/main/agent/step-recording.js';
import { performComputerAction } from '../../src/main/agent/tools/computer-tool.js';
import { EncodedImageCache, ShownImages, TurnRequestCache } from '../../src/main/context/index.js';
import { effectiveMaxImageEdge } from '../../src/main/context/model-image-size.js';
import { buildRequest } from '../../src/main/context/request-builder.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import type { Operator } from '../../src/main/operators/operator.js';
import type { RawImage } from '../../src/main/perception/frame.js';
import { decodeImageBytes } from '../../src/main/perception/image-encoding.js';
import { SETTLE_TIMING } from '../../src/main/perception/settle-watch.js';
import type { Storage } from '../../src/main/storage/index.js';
import { boxOfColour } from '../../test/helpers/desktop-test-window.js';

// Issue 36 sets the aim at 1280x800 (the size the replay bench and most flows run at).
export const SCREEN = { width: 1280, height: 800 };
export const STEPS = 15;
export const WARMUP_STEPS = 2;
export const BASELINE_SLEEP_MS = 500;
export const STATIC_MEDIAN_AIM_MS = 150;
export const PROFILE = resolveModelProfile('gpt-4.1');
const SYSTEM_PROMPT = 'You operate a computer through the tools you are given.';

export type PageKind = 'static' | 'transition';
export type Mode = 'watch' | 'sleep-500';

// Pure colours the bench finds in frames: the toggle button (cyan), the state (red off, blue on).
const BUTTON: [number, number, number] = [0, 200, 200];
const OFF: [number, number, number] = [255, 0, 0];
const ON: [number, number, number] = [0, 0, 255];
const WHITE: [number, number, number] = [255, 255, 255];

export function pageHtml(kind: PageKind): string {
  // The static panel changes colour at once; the transition box changes colour linearly and slides with
  // ease-out over 300 ms, so a frame before the end differs from the end in colour or place.
  const target =
    kind === 'static'
      ? '#target.on { background: rgb(0, 0, 255); }'
      : '#target { transition: background-color 300ms linear, transform 300ms ease-out; } #target.on { background: rgb(0, 0, 255); transform: translateX(400px); }';
  return `<!doctype html>
<html><head><title>sightline-bench-${kind}</title><style>
  body { margin: 0; background: rgb(255, 255, 255); overflow: hidden; }
  button { position: absolute; left: 40px; top: 40px; width: 200px; height: 60px; background: rgb(0, 200, 200); border: 0; outline: none; }
  #target { position: absolute; left: 100px; top: 300px; width: 200px; height: 100px; background: rgb(255, 0, 0); }
  ${target}
  p { position: absolute; left: 100px; top: 600px; font: 20px sans-serif; }
</style></head><body>
  <button id="toggle"></button>
  <div id="target"></div>
  <p>${'A page of text the step leaves as it is. '.repeat(6)}</p>
<script>document.getElementById('toggle').addEventListener('click', () => document.getElementById('target').classList.toggle('on'));</script>
</body></html>`;
}

export interface RowResult {
  operator: string;
  page: PageKind;
  mode: Mode;
  stepMs: number[];
  endStates: number;
  /** Of the steps that did not show the end state: how many showed the state before the click. */
  beforeStates: number;
  unsettled: number;
  /** Of watched steps: from the action's end to the settled frame's capture, and the frames captured. */
  watchedMs: number[];
  framesWatched: number[];
}

/** Where the page's CSS origin is in the frame: the browser's is the frame's; a desktop window's is found. */
export interface PageGeometry {
  originX: number;
  originY: number;
}

/** The old pipeline: a fixed sleep between the action and the one capture. */
function withFixedSleep(operator: Operator, milliseconds: number): Operator {
  return {
    capture: () => operator.capture(),
    execute: async (action, view, signal) => {
      const result = await operator.execute(action, view, signal);
      await sleep(milliseconds);
      return result;
    },
    releaseHeldInput: () => operator.releaseHeldInput(),
    describe: () => operator.describe(),
    close: () => operator.close(),
  };
}

export async function runRow(operator: Operator, operatorName: string, page: PageKind, mode: Mode, geometry: PageGeometry, storage: Storage): Promise<RowResult> {
  const acting = mode === 'watch' ? operator : withFixedSleep(operator, BASELINE_SLEEP_MS);
  const emit = createEventEmitter(() => undefined, (text) => text);
  const screen = new ScreenRecorder({
    operator: acting,
    storage,
    dedup: DEFAULT_CONFIG.perception.dedup,
    emit,
    ...(mode === 'watch' ? { settle: { ...SETTLE_TIMING, maxMs: DEFAULT_CONFIG.perception.settle.maxMs } } : {}),
  });
  const session = storage.sessions.create({ title: `${operatorName} ${page} ${mode}`, operator: operatorName === 'browser' ? 'browser' : 'desktop', model: PROFILE.model });
  const turn = storage.turns.start({ sessionId: session.id, userRequest: 'toggle the panel' });
  storage.messages.append({ sessionId: session.id, turnId: turn.id, message: userText('toggle the panel') });
  screen.beginTurn({ sessionId: session.id, turnId: turn.id });
  const first = await screen.capture(false);
  const view = { frameWidth: first.width, frameHeight: first.height, imageWidth: first.width, imageHeight: first.height, coordinateSpace: 'pixels' as const };
  let shown = { imageId: first.kind === 'new' ? first.imageId : first.sameAs, view };
  const imageCache = new EncodedImageCache();
  const turnCache = new TurnRequestCache();
  const maxImageEdge = effectiveMaxImageEdge(PROFILE.maxImageEdge, DEFAULT_CONFIG.perception.maxImageEdge);
  const click = { action: 'click' as const, x: geometry.originX + 140, y: geometry.originY + 70 };
  const initiallyOn = await targetState(storage, shown.imageId, page, geometry);
  const row: RowResult = { operator: operatorName, page, mode, stepMs: [], endStates: 0, beforeStates: 0, unsettled: 0, watchedMs: [], framesWatched: [] };

  for (let step = 0; step < WARMUP_STEPS + STEPS; step++) {
    const shownImages = ShownImages.of({ maxImageEdge, imageSizing: PROFILE.imageSizing, coordinateSpace: 'pixels' }, [shown]);
    const scope = { sessionId: session.id, turnId: turn.id, signal: new AbortController().signal, storage, emit, shown, shownImages };
    const callId = `call_${step}`;
    const argumentsText = JSON.stringify(click);
    const started = performance.now();
    storage.messages.append({ sessionId: session.id, turnId: turn.id, message: { role: 'assistant', parts: [], toolCalls: [{ id: callId, name: 'computer', argumentsText }] } });
    const result = await performComputerAction(click, scope, { operator: acting, screen, policy: 'never', confirm: async () => true });
    recordToolStep(storage, emit, (text) => text, { sessionId: session.id, turnId: turn.id, call: { id: callId, name: 'computer', argumentsText }, result, arguments: click, thought: undefined, shown, latencyMs: 0 });
    const built = await buildRequest({ storage, sessionId: session.id, turnId: turn.id, profile: PROFILE, maxImageEdge, systemPrompt: SYSTEM_PROMPT, imageCache, turnCache });
    const elapsed = performance.now() - started;
    // What the loop does while the model thinks (model time, outside the step's path): the present screen's
    // reduced copy for the next request. A model call takes far longer than this encode.
    await built.prepareNextRequest();
    shown = { imageId: built.shown?.imageId ?? shown.imageId, view };
    if (step < WARMUP_STEPS) continue;
    row.stepMs.push(elapsed);
    const recorded = result.record?.result as { screenshotImageId?: string; settle?: { settled: boolean; waitedMs: number; frames: number } } | undefined;
    if (recorded?.settle?.settled === false) row.unsettled += 1;
    if (recorded?.settle !== undefined) {
      row.watchedMs.push(recorded.settle.waitedMs);
      row.framesWatched.push(recorded.settle.frames);
    }
    const imageId = recorded?.screenshotImageId ?? result.record?.dedupOfImageId ?? shown.imageId;
    const expectedOn = initiallyOn === ((step + 1) % 2 === 0);
    const state = await targetState(storage, imageId, page, geometry);
    if (state === expectedOn) row.endStates += 1;
    else if (state === !expectedOn) row.beforeStates += 1;
  }
  storage.turns.end(turn.id, 'finished');
  return row;
}

/** Whether the stored screenshot shows the target at its "on" end state (true), its "off" one (false), or neither. */
async function targetState(storage: Storage, imageId: string, page: PageKind, geometry: PageGeometry): Promise<boolean | undefined> {
  const read = await storage.images.read(imageId);
  if (read.status !== 'ok') return undefined;
  const image = await decodeImageBytes(read.bytes);
  const at = (x: number, y: number): string => colourAt(image, geometry.originX + x, geometry.originY + y).join(',');
  const offPlace = at(200, 350);
  const onPlace = page === 'static' ? offPlace : at(600, 350);
  // The "on" box's left edge is at 500 after its slide; a pixel each side of it tells a box still sliding.
  const edgeOn = page === 'static' || (at(498, 350) === WHITE.join(',') && at(502, 350) === ON.join(','));
  const edgeOff = page === 'static' || (at(98, 350) === WHITE.join(',') && at(102, 350) === OFF.join(','));
  if (onPlace === ON.join(',') && (page === 'static' || offPlace === WHITE.join(',')) && edgeOn) return true;
  if (offPlace === OFF.join(',') && (page === 'static' || onPlace === WHITE.join(',')) && edgeOff) return false;
  return undefined;
}

function colourAt(image: RawImage, x: number, y: number): [number, number, number] {
  const at = (y * image.width + x) * 4;
  return [image.rgba[at]!, image.rgba[at + 1]!, image.rgba[at + 2]!];
}

/** Waits for the window to be drawn (its cyan button appears) and reads where the page's origin is. */
export async function windowGeometry(operator: Operator): Promise<PageGeometry> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const frame = await operator.capture();
    const button = boxOfColour(frame, BUTTON);
    const target = boxOfColour(frame, OFF);
    if (button && target && button.width === 200) return { originX: button.x - 40, originY: button.y - 40 };
    if (Date.now() > deadline) throw new Error('the Chromium window did not appear on the virtual display');
    await sleep(100);
  }
}
