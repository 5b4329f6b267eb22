/**
 * How the report's images find their bytes. Each distinct frame's data: URL is written once, on the first
 * <img> that shows it; every later <img> of the same frame names it (data-frame-src) and the report's script
 * copies the URL over. React renders the document in order and at once, so "first" is the first in the page.
 */
import { createContext, useContext } from 'react';
import type { ReportFrame } from '../../../shared/report-model.js';

export interface FrameSources {
  frames: ReadonlyMap<string, ReportFrame>;
  /** A frame's key by any of its image ids. */
  keyOfImage: ReadonlyMap<string, string>;
  urls: ReadonlyMap<string, string>;
  written: Set<string>;
  /** The image ids some step or divergence shows: evidence that cites another frame shows it beside the answer. */
  shown: ReadonlySet<string>;
  /** The image ids whose anchor (the target of evidence links) is already in the page. */
  anchored: Set<string>;
}

export function frameSources(frames: readonly ReportFrame[], urls: ReadonlyMap<string, string>, shown: ReadonlySet<string>): FrameSources {
  const keyOfImage = new Map<string, string>();
  for (const frame of frames) for (const imageId of frame.imageIds) keyOfImage.set(imageId, frame.key);
  return { frames: new Map(frames.map((frame) => [frame.key, frame])), keyOfImage, urls, written: new Set(), shown, anchored: new Set() };
}

export const FrameSourcesContext = createContext<FrameSources>(frameSources([], new Map(), new Set()));

/** The id of the element a link to a frame goes to. */
export function frameAnchor(imageId: string): string {
  return `frame-${imageId}`;
}

/** The anchor id for the first element that shows `imageId`; undefined for the later ones (ids are unique). */
export function claimAnchor(sources: FrameSources, imageId: string): string | undefined {
  if (sources.anchored.has(imageId)) return undefined;
  sources.anchored.add(imageId);
  return frameAnchor(imageId);
}

export function useFrameSources(): FrameSources {
  return useContext(FrameSourcesContext);
}

/** The src of the first <img> of a frame; undefined for the later ones, which name the frame instead. */
export function takeSource(sources: FrameSources, key: string): string | undefined {
  if (sources.written.has(key)) return undefined;
  sources.written.add(key);
  return sources.urls.get(key);
}
