/**
 * The frames of a report: each distinct frame once, keyed by its content hash; those the report's text cites
 * (divergences, failures, evidence, a flow's first and last, anchors) as stored, the others as a reduced WebP
 * copy. When the file would pass its size cap, the least important whole frames are reduced first (anchors, then evidence, then
 * failures, divergences last), then every reduced copy is made smaller; a report that still does not fit is
 * refused. What was given up is said in the report's notices.
 */
import sharp from 'sharp';
import type { FrameCitation, ReportFrame, ReportNotice, ReportShot } from '../../shared/report-model.js';
import { citedForReader, FRAME_CITATIONS } from '../../shared/report-model.js';
import type { ImageRecord, Storage } from '../storage/index.js';

/** The reduced copy of an uncited frame: wide enough to read a page's headings in the report's step rows. */
export const REDUCED_FRAME = { width: 480, quality: 55 } as const;
/** The last resort under a tight cap. */
const SMALLEST_FRAME = { width: 240, quality: 40 } as const;

export class ReportTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`the report would be ${megabytes(bytes)} even with every frame reduced, more than the ${megabytes(maxBytes)} cap; raise --max-size`);
    this.name = 'ReportTooLargeError';
  }
}

/** Which frames a report shows and why: every shot, and the image ids its text cites. */
export interface FrameDemand {
  shots: ReportShot[];
  citations: Map<string, Set<FrameCitation>>;
}

export function emptyDemand(): FrameDemand {
  return { shots: [], citations: new Map() };
}

export function cite(demand: FrameDemand, imageId: string, why: FrameCitation): void {
  demand.citations.set(imageId, (demand.citations.get(imageId) ?? new Set()).add(why));
}

export interface EmbeddedFrames {
  frames: ReportFrame[];
  /** A frame's data: URL by its key. */
  urls: Map<string, string>;
  notices: ReportNotice[];
}

interface Candidate {
  frame: ReportFrame;
  bytes: Buffer;
  mime: string;
}

/**
 * Reads and encodes the frames `demand` names, sets each shot's frameKey, and keeps the data URLs within
 * `budget` bytes (the cap less the rest of the file).
 */
export async function embedFrames(storage: Storage, demand: FrameDemand, budget: number, maxBytes: number, pageBytes: number): Promise<EmbeddedFrames> {
  const imageIds = new Set<string>([...demand.shots.map((shot) => shot.imageId), ...demand.citations.keys()]);
  const candidates = new Map<string, Candidate>();
  const keyOf = new Map<string, string>();
  const missing: string[] = [];
  for (const imageId of imageIds) {
    const record = storage.images.get(imageId);
    if (record === undefined || record.purgedAt !== null) {
      if (demand.citations.has(imageId)) missing.push(imageId);
      continue;
    }
    const key = frameKey(record);
    const known = candidates.get(key);
    if (known !== undefined) {
      known.frame.imageIds.push(imageId);
      keyOf.set(imageId, key);
      continue;
    }
    const read = await storage.images.read(imageId);
    if (read.status !== 'ok') {
      if (demand.citations.has(imageId)) missing.push(imageId);
      continue;
    }
    keyOf.set(imageId, key);
    candidates.set(key, {
      frame: { key, imageIds: [imageId], width: record.width, height: record.height, pixelWidth: record.width, pixelHeight: record.height, full: false, citedFor: [], openImageIds: [], droppedForSize: false },
      bytes: read.bytes,
      mime: record.mime,
    });
  }
  for (const [imageId, why] of demand.citations) {
    const candidate = candidates.get(keyOf.get(imageId) ?? '');
    if (candidate === undefined) continue;
    candidate.frame.citedFor = FRAME_CITATIONS.filter((citation) => why.has(citation) || candidate.frame.citedFor.includes(citation));
    candidate.frame.full = true;
    if (citedForReader(why)) candidate.frame.openImageIds.push(imageId);
  }
  for (const shot of demand.shots) shot.frameKey = keyOf.get(shot.imageId) ?? null;

  const urls = new Map<string, string>();
  const reduced = new Map<string, string>();
  // A reduced copy's own size goes on the frame: the page draws it no larger, never stretched.
  const reduce = async (candidate: Candidate, size: { width: number; quality: number }): Promise<string> => {
    const { data, info } = await sharp(candidate.bytes).resize({ width: size.width, withoutEnlargement: true }).webp({ quality: size.quality }).toBuffer({ resolveWithObject: true });
    candidate.frame.pixelWidth = info.width;
    candidate.frame.pixelHeight = info.height;
    return dataUrl('image/webp', data);
  };
  for (const candidate of candidates.values()) {
    const url = candidate.frame.full ? dataUrl(candidate.mime, candidate.bytes) : await reduce(candidate, REDUCED_FRAME);
    urls.set(candidate.frame.key, url);
    if (!candidate.frame.full) reduced.set(candidate.frame.key, url);
  }
  const total = () => [...urls.values()].reduce((sum, url) => sum + url.length, 0);

  const notices: ReportNotice[] = [];
  if (missing.length > 0) {
    notices.push({ kind: 'unavailable-frame', text: `${plural(missing.length, 'frame')} the text cites ${missing.length === 1 ? 'is' : 'are'} no longer stored: ${missing.join(', ')}.` });
  }
  if (total() <= budget) return { frames: [...candidates.values()].map((candidate) => candidate.frame), urls, notices };

  // Least important first: the lowest citation a frame has decides, then the largest goes first.
  const whole = [...candidates.values()]
    .filter((candidate) => candidate.frame.full)
    .sort((first, second) => importance(first.frame) - importance(second.frame) || (urls.get(second.frame.key)?.length ?? 0) - (urls.get(first.frame.key)?.length ?? 0));
  const dropped: string[] = [];
  for (const candidate of whole) {
    if (total() <= budget) break;
    const url = await reduce(candidate, REDUCED_FRAME);
    urls.set(candidate.frame.key, url);
    candidate.frame.full = false;
    candidate.frame.droppedForSize = true;
    dropped.push(...candidate.frame.imageIds);
  }
  let shrunk = false;
  if (total() > budget) {
    shrunk = true;
    for (const candidate of candidates.values()) urls.set(candidate.frame.key, await reduce(candidate, SMALLEST_FRAME));
  }
  if (total() > budget) throw new ReportTooLargeError(pageBytes + total(), maxBytes);
  if (dropped.length > 0) {
    notices.push({
      kind: 'size-cap',
      text: `${plural(dropped.length, 'frame')} the text cites ${dropped.length === 1 ? 'is' : 'are'} shown smaller to keep the file small (under its ${megabytes(maxBytes)} cap): ${dropped.join(', ')}.`,
    });
  }
  if (shrunk) notices.push({ kind: 'size-cap', text: `Every frame is shown smaller, ${SMALLEST_FRAME.width} px wide, to keep the file small (under its ${megabytes(maxBytes)} cap).` });
  return { frames: [...candidates.values()].map((candidate) => candidate.frame), urls, notices };
}

/** Two images with the same bytes are one frame. */
function frameKey(record: Pick<ImageRecord, 'sha256'>): string {
  return record.sha256.slice(0, 20);
}

/** Higher is kept longer: the index of the frame's most important citation, counted from the end. */
function importance(frame: ReportFrame): number {
  const best = Math.min(...frame.citedFor.map((citation) => FRAME_CITATIONS.indexOf(citation)));
  return Number.isFinite(best) ? FRAME_CITATIONS.length - best : 0;
}

function dataUrl(mime: string, bytes: Buffer): string {
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
