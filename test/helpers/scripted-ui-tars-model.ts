/**
 * A scripted UI-TARS model on the fake server: each reply is one planned move written as UI-TARS writes it
 * (its COMPUTER_USE forms, in vLLM's response shape), answered only when the request shows it a screenshot.
 * It cannot see, so it clicks known points of a page laid out for a 1280x800 viewport; like the real model,
 * it names them in the space of the image it was sent: pixels of that image (UI-TARS-1.5) or 0–1000
 * (UI-TARS 1.0), read from the request itself, so the move lands wherever Sightline's sizing puts the image.
 */
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { clickAnswer, finishedAnswer, typeAnswer, uiTarsAnswer } from '../fixtures/ui-tars/ui-tars-answers.js';
import type { FakeReply, RecordedRequest } from './fake-openai-server.js';

export type UiTarsMove =
  /** A point of the 1280x800 layout, in CSS pixels. */
  | { click: { x: number; y: number }; thought: string }
  /** A trailing "\n" submits, as UI-TARS writes it. */
  | { type: string; thought: string }
  | { finished: string };

const LAYOUT_SIZE = { width: 1280, height: 800 };

export interface UiTarsRequestSummary {
  /** The size of the last screenshot in the request, as sent. */
  image: { width: number; height: number };
  images: number;
  tools: unknown;
  /** The messages with image data cut out. */
  messages: Array<{ role: string; text: string }>;
}

export function scriptedUiTarsMoves(
  model: string,
  moves: readonly UiTarsMove[],
  onRequest?: (summary: UiTarsRequestSummary) => void,
): Array<(request: RecordedRequest) => FakeReply> {
  const space = resolveModelProfile(model).coordinateSpace;
  return moves.map((move) => (request) => {
    const summary = summarize(request);
    onRequest?.(summary);
    if (summary.images === 0) return { type: 'error', status: 400, message: 'the scripted UI-TARS model was sent no screenshot' };
    if ('finished' in move) return uiTarsAnswer(finishedAnswer(move.finished));
    if ('type' in move) return uiTarsAnswer(typeAnswer(move.type, move.thought));
    const scale = space === 'normalized-1000' ? { x: 1000, y: 1000 } : { x: summary.image.width, y: summary.image.height };
    const x = Math.round((move.click.x * scale.x) / LAYOUT_SIZE.width);
    const y = Math.round((move.click.y * scale.y) / LAYOUT_SIZE.height);
    return uiTarsAnswer(clickAnswer(x, y, move.thought));
  });
}

function summarize(request: RecordedRequest): UiTarsRequestSummary {
  const body = (request.body ?? {}) as { tools?: unknown; messages?: Array<{ role: string; content: unknown }> };
  const urls: string[] = [];
  const messages = (body.messages ?? []).map((message) => {
    if (typeof message.content === 'string') return { role: message.role, text: message.content };
    const parts = (message.content ?? []) as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    for (const part of parts) if (part.type === 'image_url' && part.image_url !== undefined) urls.push(part.image_url.url);
    return { role: message.role, text: parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '[image]')).join('\n') };
  });
  const last = urls.at(-1);
  return { image: last === undefined ? { width: 0, height: 0 } : pngSize(last), images: urls.length, tools: body.tools, messages };
}

/** Width and height from a PNG data URL's IHDR chunk (bytes 16–23). */
function pngSize(dataUrl: string): { width: number; height: number } {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1, dataUrl.indexOf(',') + 1 + 44);
  const header = Buffer.from(base64, 'base64');
  return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) };
}
