/**
 * The benchmark's scripted session, shared by the sections that measure requests over it (context.ts,
 * anthropic-cache.ts): by default 50 turns × 10 model calls with a 1280×800 screenshot after every action
 * (other shapes: SessionShape), written to storage the way the agent writes it, and the requests the real
 * request builder renders from it.
 * Not a section itself: bench/run.ts loads only the .ts files directly in bench/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { buildSystemPrompt } from '../../src/main/agent/system-prompt.js';
import { createCropImageTool } from '../../src/main/agent/tools/crop-image-tool.js';
import { createFinishTool } from '../../src/main/agent/tools/finish-tool.js';
import { createGetHistoryImageTool } from '../../src/main/agent/tools/get-history-image-tool.js';
import type { EncodedImageCache } from '../../src/main/context/encoded-image-cache.js';
import { effectiveMaxImageEdge } from '../../src/main/context/model-image-size.js';
import { buildRequest, type BuiltRequest, type ContextPolicy } from '../../src/main/context/request-builder.js';
import type { TurnRequestCache } from '../../src/main/context/turn-request-cache.js';
import type { ModelProfile } from '../../src/main/llm/model-profiles.js';
import { openStorage, type Storage } from '../../src/main/storage/index.js';

/** How many turns, and model calls in each: a turn holds as many screenshots as calls (the last call finishes). */
export interface SessionShape {
  turns: number;
  callsPerTurn: number;
}

export const TURNS = 50;
export const CALLS_PER_TURN = 10;
export const DEFAULT_SHAPE: SessionShape = { turns: TURNS, callsPerTurn: CALLS_PER_TURN };
export const WIDTH = 1280;
export const HEIGHT = 800;
export const CONTEXT = DEFAULT_CONFIG.context;

export const SYSTEM_PROMPT = buildSystemPrompt({
  task: 'The benchmark session\'s task.',
  operatorKind: 'browser',
  screenshotWidth: WIDTH,
  screenshotHeight: HEIGHT,
  coordinateSpace: 'pixels',
  tools: [
    { name: 'computer', description: 'Act on the screen with the mouse or keyboard, one action per call.' },
    createFinishTool(),
    createGetHistoryImageTool(),
    createCropImageTool(),
  ],
});

/** Distinct per turn and step, cheap to make: a background, a window and a cursor, as a fast PNG. */
async function makeScreenshot(turn: number, step: number): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  const fill = (x: number, y: number, width: number, height: number, colour: readonly [number, number, number]) => {
    const row = Buffer.alloc(width * 3);
    for (let index = 0; index < width; index += 1) row.set(colour, index * 3);
    for (let line = y; line < y + height; line += 1) row.copy(pixels, (line * WIDTH + x) * 3);
  };
  fill(0, 0, WIDTH, HEIGHT, [(turn * 37) % 256, 180 + (turn % 60), 220]);
  fill((turn * 23 + step * 41) % 800, (turn * 13 + step * 29) % 450, 420, 300, [250, (step * 23) % 256, (turn * 5) % 256]);
  fill((step * 97 + turn) % 1200, (step * 61 + turn) % 760, 24, 24, [0, 0, 0]);
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
}

/** Every screenshot of the session, by turn (from 0) and step (0 is the turn's first screen). */
export async function makeScreenshots(shape: SessionShape = DEFAULT_SHAPE): Promise<Buffer[][]> {
  const screenshots: Buffer[][] = [];
  for (let turn = 1; turn <= shape.turns; turn += 1) {
    const steps: Buffer[] = [];
    for (let step = 0; step < shape.callsPerTurn; step += 1) steps.push(await makeScreenshot(turn, step));
    screenshots.push(steps);
  }
  return screenshots;
}

export interface SessionHooks {
  /** Before each model call of a turn: build the requests being measured. */
  beforeModelCall(turnId: string, turnNumber: number): Promise<void>;
  afterTurn(turnId: string, turnNumber: number): Promise<void>;
}

/**
 * Writes the session the way the agent does: request, first screen, then calls with their results and
 * screenshots. Its shape is the screenshots': one turn per row, one model call per screenshot of the row.
 * `imageTurns` gets each screenshot's turn, in the order they were taken.
 */
export async function playSession(
  storage: Storage,
  model: string,
  screenshots: Buffer[][],
  imageTurns: Map<string, number>,
  hooks: SessionHooks,
): Promise<string> {
  const session = storage.sessions.create({ title: 'Benchmark session', operator: 'browser', model });
  let callNumber = 0;
  const putScreenshot = async (turnId: string, turn: number, step: number) => {
    const record = await storage.images.put({
      sessionId: session.id,
      turnId,
      bytes: screenshots[turn - 1]![step]!,
      mime: 'image/png',
      width: WIDTH,
      height: HEIGHT,
      source: 'browser',
    });
    imageTurns.set(record.id, turn);
    return record.id;
  };
  const turns = screenshots.length;
  for (let turn = 1; turn <= turns; turn += 1) {
    const callsPerTurn = screenshots[turn - 1]!.length;
    const request = `Task ${turn}: open the report for week ${turn}, check the totals and file it under "${turn % 7 === 0 ? 'Review' : 'Done'}".`;
    const turnId = storage.turns.start({ sessionId: session.id, userRequest: request }).id;
    storage.messages.append({ sessionId: session.id, turnId, message: { role: 'user', parts: [{ type: 'text', text: request }] } });
    let screen = await putScreenshot(turnId, turn, 0);
    storage.messages.append({
      sessionId: session.id,
      turnId,
      message: { role: 'user', parts: [{ type: 'text', text: 'The screen now:' }, { type: 'image', imageId: screen }] },
    });
    for (let step = 1; step <= callsPerTurn; step += 1) {
      await hooks.beforeModelCall(turnId, turn);
      callNumber += 1;
      const callId = `call_${callNumber}`;
      const finishing = step === callsPerTurn;
      const action = { action: 'click' as const, x: (step * 97 + turn * 13) % WIDTH, y: (step * 61 + turn * 7) % HEIGHT };
      const thought = finishing ? `The report for week ${turn} is filed.` : `Step ${step}: I click the next control of the report form.`;
      const argumentsText = finishing ? JSON.stringify({ summary: thought, success: true }) : JSON.stringify(action);
      storage.messages.append({
        sessionId: session.id,
        turnId,
        message: { role: 'assistant', parts: [{ type: 'text', text: thought }], toolCalls: [{ id: callId, name: finishing ? 'finish' : 'computer', argumentsText }] },
      });
      if (finishing) {
        storage.messages.append({ sessionId: session.id, turnId, message: { role: 'tool', toolCallId: callId, name: 'finish', parts: [{ type: 'text', text: 'Finished.' }] } });
        storage.steps.append({ sessionId: session.id, turnId, action: { tool: 'finish', arguments: JSON.parse(argumentsText) }, thought, screenshotImageId: screen, result: { ok: true } });
        break;
      }
      const next = await putScreenshot(turnId, turn, step);
      const detail = `click at (${action.x}, ${action.y}) done`;
      storage.messages.append({
        sessionId: session.id,
        turnId,
        message: { role: 'tool', toolCallId: callId, name: 'computer', parts: [{ type: 'text', text: detail }, { type: 'image', imageId: next }] },
      });
      storage.steps.append({ sessionId: session.id, turnId, action, thought, screenshotImageId: screen, result: { ok: true, detail, screenshotImageId: next }, latencyMs: 120 });
      screen = next;
    }
    storage.turns.end(turnId, 'finished');
    await hooks.afterTurn(turnId, turn);
  }
  return session.id;
}

/**
 * The request a policy would send before this model call, as the agent builds it. A turn cache (one per turn
 * and policy, as the agent keeps one per turn) makes a build read only the running turn's new rows: the same
 * bytes as without one.
 */
export function sessionRequest(
  storage: Storage,
  turnId: string,
  request: { profile: ModelProfile; policy: ContextPolicy; imageCache: EncodedImageCache; turnCache?: TurnRequestCache },
): Promise<BuiltRequest> {
  return buildRequest({
    storage,
    sessionId: storage.turns.get(turnId)!.sessionId,
    turnId,
    profile: request.profile,
    maxImageEdge: effectiveMaxImageEdge(request.profile.maxImageEdge, DEFAULT_CONFIG.perception.maxImageEdge),
    systemPrompt: SYSTEM_PROMPT,
    imageCache: request.imageCache,
    ...(request.turnCache === undefined ? {} : { turnCache: request.turnCache }),
    context: CONTEXT,
    policy: request.policy,
  });
}

export interface TemporaryStorage {
  storage: Storage;
  remove(): void;
}

export function temporaryStorage(label: string): TemporaryStorage {
  const root = mkdtempSync(join(tmpdir(), `sightline-bench-${label}-`));
  const storage = openStorage({
    databaseFile: join(root, 'sightline.db'),
    blobsDirectory: join(root, 'blobs'),
    coldStorageDirectory: join(root, 'cold-storage'),
  });
  return {
    storage,
    remove: () => {
      storage.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
