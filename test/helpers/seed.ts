/**
 * Test data for anything that reads storage: N sessions × turns × steps, each step with a real PNG
 * screenshot (drawn with sharp, different per step so hashes differ), plus one user and one assistant
 * message per turn. Reuse it for CLI, timeline, context and API tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { homeAt, type SightlineHome } from '../../src/main/config/home.js';
import {
  openStorage,
  type ImageRecord,
  type SessionRecord,
  type StepRecord,
  type Storage,
  type StorageOptions,
  type TurnRecord,
} from '../../src/main/storage/index.js';
import type { TurnEndStatus } from '../../src/shared/statuses.js';

export interface TemporaryHome extends SightlineHome {
  /** Deletes the folder and everything in it. */
  remove: () => void;
}

/** A fresh, empty home folder under the OS temp folder. */
export function createTemporaryHome(label = 'sightline-test'): TemporaryHome {
  const root = mkdtempSync(join(tmpdir(), `${label}-`));
  return { ...homeAt(root), remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Opens storage in a home folder (the paths a SightlineHome carries), with optional test seams. */
export function openHomeStorage(
  home: SightlineHome,
  extra: Pick<StorageOptions, 'clock' | 'blobFaults'> = {},
): Storage {
  return openStorage({
    databaseFile: home.databaseFile,
    blobsDirectory: home.blobsDirectory,
    coldStorageDirectory: home.coldStorageDirectory,
    ...extra,
  });
}

export interface PngOptions {
  width?: number;
  height?: number;
  /** Different seeds draw different pictures (a moving block on a shifting background). */
  seed?: number;
}

/** A real PNG: a background and a block whose colour and position depend on the seed. */
export async function makePng(options: PngOptions = {}): Promise<Buffer> {
  const width = options.width ?? 64;
  const height = options.height ?? 48;
  const seed = options.seed ?? 0;
  const pixels = Buffer.alloc(width * height * 4);
  const background = [(seed * 53) % 256, (seed * 97 + 40) % 256, (seed * 31 + 90) % 256];
  const block = { x: (seed * 7) % Math.max(1, width - width / 4), y: (seed * 5) % Math.max(1, height - height / 4) };
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const inBlock = x >= block.x && x < block.x + width / 4 && y >= block.y && y < block.y + height / 4;
      const offset = (y * width + x) * 4;
      pixels[offset] = inBlock ? 255 - (background[0] ?? 0) : (background[0] ?? 0);
      pixels[offset + 1] = inBlock ? 255 - (background[1] ?? 0) : (background[1] ?? 0);
      pixels[offset + 2] = inBlock ? 255 - (background[2] ?? 0) : (background[2] ?? 0);
      pixels[offset + 3] = 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 4 } }).png().toBuffer();
}

export interface SeedOptions {
  sessions?: number;
  turnsPerSession?: number;
  stepsPerTurn?: number;
  imageWidth?: number;
  imageHeight?: number;
  /** How each turn ends; by default every turn finishes. Return 'running' to leave it open. */
  turnStatus?: (sessionIndex: number, turnIndex: number) => TurnEndStatus | 'running';
}

export interface SeededTurn {
  turn: TurnRecord;
  steps: StepRecord[];
  images: ImageRecord[];
}

export interface SeededSession {
  session: SessionRecord;
  turns: SeededTurn[];
}

/**
 * Fills storage with sessions, turns, steps and screenshots. Titles are `Session 1`, `Session 2`…;
 * requests `Request 1.1`, `Request 1.2`…; actions click at a point that depends on the step.
 */
export async function seedStorage(storage: Storage, options: SeedOptions = {}): Promise<SeededSession[]> {
  const sessionCount = options.sessions ?? 2;
  const turnCount = options.turnsPerSession ?? 2;
  const stepCount = options.stepsPerTurn ?? 3;
  const seeded: SeededSession[] = [];
  let pictureSeed = 1;
  for (let sessionIndex = 0; sessionIndex < sessionCount; sessionIndex += 1) {
    const session = storage.sessions.create({
      title: `Session ${sessionIndex + 1}`,
      operator: 'browser',
      model: 'test-model',
    });
    const turns: SeededTurn[] = [];
    for (let turnIndex = 0; turnIndex < turnCount; turnIndex += 1) {
      const userRequest = `Request ${sessionIndex + 1}.${turnIndex + 1}`;
      let turn = storage.turns.start({ sessionId: session.id, userRequest });
      storage.messages.append({
        sessionId: session.id,
        turnId: turn.id,
        message: { role: 'user', parts: [{ type: 'text', text: userRequest }] },
      });
      const steps: StepRecord[] = [];
      const images: ImageRecord[] = [];
      for (let stepIndex = 0; stepIndex < stepCount; stepIndex += 1) {
        const width = options.imageWidth ?? 64;
        const height = options.imageHeight ?? 48;
        const bytes = await makePng({ width, height, seed: pictureSeed });
        pictureSeed += 1;
        const image = await storage.images.put({
          sessionId: session.id,
          turnId: turn.id,
          bytes,
          mime: 'image/png',
          width,
          height,
          source: 'browser',
        });
        images.push(image);
        steps.push(
          storage.steps.append({
            sessionId: session.id,
            turnId: turn.id,
            action: { action: 'click', x: 10 + stepIndex, y: 20 + stepIndex },
            thought: `Step ${stepIndex + 1} of ${userRequest}`,
            screenshotImageId: image.id,
            result: { ok: true },
            latencyMs: 100 + stepIndex,
            inputTokens: 1000,
            outputTokens: 50,
          }),
        );
      }
      storage.messages.append({
        sessionId: session.id,
        turnId: turn.id,
        message: { role: 'assistant', parts: [{ type: 'text', text: `Done: ${userRequest}` }], toolCalls: [] },
      });
      const status = options.turnStatus?.(sessionIndex, turnIndex) ?? 'finished';
      if (status !== 'running') turn = storage.turns.end(turn.id, status);
      turns.push({ turn, steps, images });
    }
    seeded.push({ session, turns });
  }
  return seeded;
}
