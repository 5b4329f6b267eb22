/**
 * Real capture through node-screenshots on a private Xvfb: a window placed at a known spot must appear in
 * the frame exactly there, and the display's size and scale factor must be reported as configured.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImageFile } from '../../src/main/perception/image-encoding.js';
import type { RawImage } from '../../src/main/perception/frame.js';
import { startXvfb, type Xvfb } from '../helpers/xvfb.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const CAPTURE_SCRIPT = join(REPO_ROOT, 'test/e2e/support/capture-desktop-frame.ts');
const SCREEN = { width: 1280, height: 800 };
// No window manager runs, so the window lands exactly where asked; border 0 so its red fills the box.
const WINDOW = { x: 200, y: 120, width: 300, height: 160 };

interface CaptureReport {
  displays: { id: number; bounds: { x: number; y: number; width: number; height: number }; scaleFactor: number }[];
  frame: { width: number; height: number; scaleFactor: number; displayId: number; bounds: { x: number; y: number; width: number; height: number } };
}

let xvfb: Xvfb;
let windowProcess: ChildProcess | undefined;
let folder: string;

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  folder = mkdtempSync(join(tmpdir(), 'sightline-capture-'));
});

afterAll(async () => {
  windowProcess?.kill('SIGTERM');
  await xvfb?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

function captureInChild(outputPath: string, waitFor?: { x: number; y: number }): CaptureReport {
  const extra = waitFor ? [String(waitFor.x), String(waitFor.y)] : [];
  const child = spawnSync(process.execPath, ['--import', 'tsx', CAPTURE_SCRIPT, outputPath, ...extra], {
    cwd: REPO_ROOT,
    env: xvfb.env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (child.status !== 0) throw new Error(`capture failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as CaptureReport;
}

function redBox(image: RawImage): { x: number; y: number; width: number; height: number } | undefined {
  let minX = Infinity, minY = Infinity, maxX = -1, maxY = -1;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const index = (y * image.width + x) * 4;
      if (image.rgba[index] === 255 && image.rgba[index + 1] === 0 && image.rgba[index + 2] === 0) {
        minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
      }
    }
  }
  return maxX < 0 ? undefined : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

describe('desktop capture under Xvfb', () => {
  it('reports the display with its size and scale factor, and captures it whole', async () => {
    const report = captureInChild(join(folder, 'empty.png'));
    expect(report.displays).toHaveLength(1);
    expect(report.displays[0]!.bounds).toEqual({ x: 0, y: 0, ...SCREEN });
    expect(report.displays[0]!.scaleFactor).toBe(1);
    expect(report.frame).toMatchObject({ ...SCREEN, scaleFactor: 1, displayId: report.displays[0]!.id, bounds: { x: 0, y: 0, ...SCREEN } });
    expect(redBox(await decodeImageFile(join(folder, 'empty.png')))).toBeUndefined();
  });

  it('shows a window opened on the display at the place it was opened', async () => {
    windowProcess = spawn(
      'xmessage',
      ['-geometry', `${WINDOW.width}x${WINDOW.height}+${WINDOW.x}+${WINDOW.y}`, '-xrm', '*borderWidth: 0',
        '-bg', '#ff0000', '-fg', '#ff0000', '-buttons', '', '-title', 'sightline-e2e', ' '],
      { env: xvfb.env, stdio: 'ignore' },
    );
    const mapped = spawnSync('xdotool', ['search', '--sync', '--onlyvisible', '--name', '^sightline-e2e$'], { env: xvfb.env, timeout: 10_000 });
    expect(mapped.status).toBe(0);

    const centre = { x: WINDOW.x + WINDOW.width / 2, y: WINDOW.y + WINDOW.height / 2 };
    const report = captureInChild(join(folder, 'window.png'), centre);
    const frame = await decodeImageFile(join(folder, 'window.png'));
    expect({ width: frame.width, height: frame.height }).toEqual({ width: report.frame.width, height: report.frame.height });
    expect(redBox(frame)).toEqual(WINDOW);
  });
});
