/**
 * `sightline report SESSION --gif FILE`: the session's settled frames as one animated GIF or WebP, each with the
 * action's mark and a caption (the step's number and its action in words), through sharp. Under its size cap
 * the frames are made narrower until it fits; a session that does not fit even then is refused.
 */
import sharp from 'sharp';
import { actionPointsOnScreenshot } from '../../shared/actions.js';
import type { Redact } from '../../shared/secret-redaction.js';
import type { ReportAgentStep } from '../../shared/report-model.js';
import type { Storage } from '../storage/index.js';
import { megabytes } from './report-frames.js';
import { readReportSession } from './report-session.js';

export type AnimationFormat = 'gif' | 'webp';

export interface AnimationOptions {
  storage: Storage;
  redact: Redact;
  format: AnimationFormat;
  maxBytes: number;
  /** How long each frame shows (default 1.2 s). */
  frameMs?: number;
}

export interface BuiltAnimation {
  bytes: Buffer;
  frames: number;
  width: number;
  height: number;
}

export class NothingToAnimateError extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} has no stored screenshots to animate`);
    this.name = 'NothingToAnimateError';
  }
}

export class AnimationTooLargeError extends Error {
  constructor(bytes: number, maxBytes: number) {
    super(`the animation would be ${megabytes(bytes)} even at its smallest, more than the ${megabytes(maxBytes)} cap; raise --max-size`);
    this.name = 'AnimationTooLargeError';
  }
}

const WIDTHS = [640, 480, 320] as const;
const CAPTION_HEIGHT = 36;

export async function buildSessionAnimation(sessionId: string, options: AnimationOptions): Promise<BuiltAnimation> {
  const session = readReportSession(options.storage, sessionId, options.redact);
  const frames: { step: ReportAgentStep; turn: number; bytes: Buffer }[] = [];
  for (const turn of session.turns) {
    for (const step of turn.steps) {
      if (step.shot === null) continue;
      const read = await options.storage.images.read(step.shot.imageId);
      if (read.status === 'ok') frames.push({ step, turn: turn.sequence, bytes: read.bytes });
    }
  }
  const first = frames[0];
  if (first === undefined || first.step.shot === null) throw new NothingToAnimateError(sessionId);
  const aspect = first.step.shot.height / first.step.shot.width;
  let smallest = Number.POSITIVE_INFINITY;
  for (const width of WIDTHS) {
    const height = Math.round(width * aspect);
    const stills = await Promise.all(frames.map((frame) => still(frame, width, height)));
    const animation = sharp(stills, { join: { animated: true } });
    const delay = options.frameMs ?? 1200;
    const bytes =
      options.format === 'gif'
        ? await animation.gif({ delay, loop: 0, effort: 7 }).toBuffer()
        : await animation.webp({ delay, loop: 0, quality: 60, effort: 4 }).toBuffer();
    if (bytes.byteLength <= options.maxBytes) return { bytes, frames: frames.length, width, height: height + CAPTION_HEIGHT };
    smallest = bytes.byteLength;
  }
  throw new AnimationTooLargeError(smallest, options.maxBytes);
}

/** One frame: the screenshot scaled into width×height, its action's mark, and the caption bar under it. */
async function still(frame: { step: ReportAgentStep; turn: number; bytes: Buffer }, width: number, height: number): Promise<Buffer> {
  const { step } = frame;
  const shot = step.shot!;
  const scale = Math.min(width / shot.width, height / shot.height);
  const left = (width - shot.width * scale) / 2;
  const top = (height - shot.height * scale) / 2;
  const points = step.action !== null && step.view !== null ? actionPointsOnScreenshot(step.action, step.view, { width: shot.width, height: shot.height }) : [];
  const radius = Math.max(8, width / 40);
  const marks = points
    .map((point) => {
      const x = left + point.x * scale;
      const y = top + point.y * scale;
      return `<circle cx="${x}" cy="${y}" r="${radius}" fill="rgb(255,77,109)" fill-opacity="0.2" stroke="#ff4d6d" stroke-width="${radius / 4}"/><circle cx="${x}" cy="${y}" r="${radius / 3}" fill="#ff4d6d"/>`;
    })
    .join('');
  const caption = xmlText(oneLine(`${frame.turn}.${step.sequence}  ${step.label}`, Math.floor(width / 8)));
  const overlay = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + CAPTION_HEIGHT}">${marks}<rect x="0" y="${height}" width="${width}" height="${CAPTION_HEIGHT}" fill="#0f1115"/><text x="10" y="${height + 23}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="15" fill="#e6e8ee">${caption}</text></svg>`;
  const picture = await sharp(frame.bytes).resize({ width, height, fit: 'contain', background: '#0f1115' }).toBuffer();
  return sharp({ create: { width, height: height + CAPTION_HEIGHT, channels: 4, background: '#0f1115' } })
    .composite([
      { input: picture, top: 0, left: 0 },
      { input: Buffer.from(overlay), top: 0, left: 0 },
    ])
    .png()
    .toBuffer();
}

/** Text for an SVG text node: a page's or a model's words are never markup. */
function xmlText(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function oneLine(text: string, most: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > most ? `${line.slice(0, most - 1)}…` : line;
}
