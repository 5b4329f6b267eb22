/**
 * Qwen's answers as the fake model server replays them, in the two forms servers return `computer_use`:
 *
 * - native tool calls, from a server with a tool parser:
 *   - vLLM `--enable-auto-tool-choice --tool-call-parser hermes`: ids `chatcmpl-tool-<hex>`, the name in the
 *     first chunk and the arguments in pieces after it
 *     (https://docs.vllm.ai/en/latest/api/vllm/tool_parsers/hermes_tool_parser/);
 *   - Ollama's OpenAI-compatible endpoint: ids `call_<random>`, each call whole in one chunk
 *     (https://github.com/ollama/ollama/issues/11633), here without the `index` older versions left out
 *     (https://github.com/ollama/ollama/issues/7881), the harder case for the stream reader;
 * - `<tool_call>` text in the content, from a server without one (the Hermes form Qwen's chat template
 *   teaches: https://github.com/QwenLM/Qwen2.5-VL/blob/main/cookbooks/computer_use.ipynb).
 *
 * `scriptedQwenMoves` is a scripted Qwen for the end-to-end runs: it names each point in the space its
 * family uses, computed from the size of the screenshot it was actually sent, as the real model does.
 */
import { randomBytes } from 'node:crypto';
import type { FakeReply, RecordedRequest } from './fake-openai-server.js';

export type QwenArguments = Record<string, unknown>;
export type QwenServerStyle = 'vllm' | 'ollama';

type FakeAnswer = Extract<FakeReply, { type: 'answer' }>;

/** One `computer_use` call as a native tool call (or several, in one answer). */
export function qwenNativeReply(calls: QwenArguments | QwenArguments[], style: QwenServerStyle = 'vllm', text?: string): FakeAnswer {
  const list = Array.isArray(calls) ? calls : [calls];
  return {
    type: 'answer',
    ...(text === undefined ? {} : { text }),
    toolCalls: list.map((argumentsValue) => ({
      id: style === 'vllm' ? `chatcmpl-tool-${randomBytes(16).toString('hex')}` : `call_${randomBytes(4).toString('hex')}`,
      name: 'computer_use',
      arguments: JSON.stringify(argumentsValue),
      ...(style === 'ollama' ? { wholeInOneChunk: true, withoutIndex: true } : { argumentPieces: 4 }),
    })),
  };
}

/** The `<tool_call>` blocks of one answer, after an optional thought line. */
export function qwenToolCallText(calls: QwenArguments | QwenArguments[], thought?: string, name = 'computer_use'): string {
  const list = Array.isArray(calls) ? calls : [calls];
  const blocks = list.map((argumentsValue) => `<tool_call>\n${JSON.stringify({ name, arguments: argumentsValue })}\n</tool_call>`);
  return [...(thought === undefined ? [] : [thought]), ...blocks].join('\n');
}

/** An answer whose calls are `<tool_call>` text in the content. */
export function qwenTextReply(calls: QwenArguments | QwenArguments[], thought?: string): FakeAnswer {
  return { type: 'answer', text: qwenToolCallText(calls, thought) };
}

/** A move of the scripted Qwen, with points on the page as laid out in `layout` (the viewport's CSS pixels). */
export type QwenMove =
  | { click: { x: number; y: number }; thought?: string }
  /** Qwen3-VL's triple_click (selects a field's text, so typing replaces it). */
  | { tripleClick: { x: number; y: number }; thought?: string }
  | { type: string; thought?: string }
  | { key: string[]; thought?: string }
  | { terminate: 'success' | 'failure'; thought?: string };

export interface ScriptedQwenOptions {
  /** How the answers come back. */
  form: 'native' | 'text';
  /** How this Qwen names points: Qwen2.5-VL in pixels of the image sent, Qwen3-VL 0–1000. */
  coordinateSpace: 'pixels' | 'normalized-1000';
  /** The size of the page the move points are given in. */
  layout: { width: number; height: number };
  style?: QwenServerStyle;
  /** Sees each request, and the size of the screenshot it carried last. */
  onRequest?: (request: RecordedRequest, screenshot: { width: number; height: number }) => void;
}

/**
 * One reply per move. A move is made only when the request offers computer_use and carries a screenshot
 * (an HTTP 400 the run reports otherwise), and its point is scaled to what that screenshot shows.
 */
export function scriptedQwenMoves(moves: readonly QwenMove[], options: ScriptedQwenOptions): Array<(request: RecordedRequest) => FakeReply> {
  return moves.map((move) => (request) => {
    const screenshot = lastScreenshotSize(request.body);
    if (screenshot === undefined) return { type: 'error', status: 400, message: 'the scripted Qwen was sent no screenshot' };
    options.onRequest?.(request, screenshot);
    const tools = ((request.body as { tools?: Array<{ function?: { name?: string } }> }).tools ?? []).map((tool) => tool.function?.name);
    if (!tools.includes('computer_use')) return { type: 'error', status: 400, message: `the scripted Qwen needs computer_use; offered: ${tools.join(', ')}` };
    const argumentsValue = qwenArgumentsOf(move, screenshot, options);
    return options.form === 'native'
      ? qwenNativeReply(argumentsValue, options.style ?? 'vllm', move.thought)
      : qwenTextReply(argumentsValue, move.thought);
  });
}

function qwenArgumentsOf(move: QwenMove, screenshot: { width: number; height: number }, options: ScriptedQwenOptions): QwenArguments {
  if ('click' in move || 'tripleClick' in move) {
    const point = 'click' in move ? move.click : move.tripleClick;
    const extent = options.coordinateSpace === 'normalized-1000' ? { width: 1000, height: 1000 } : screenshot;
    const x = Math.round((point.x * extent.width) / options.layout.width);
    const y = Math.round((point.y * extent.height) / options.layout.height);
    return { action: 'click' in move ? 'left_click' : 'triple_click', coordinate: [x, y] };
  }
  if ('type' in move) return { action: 'type', text: move.type };
  if ('key' in move) return { action: 'key', keys: move.key };
  return { action: 'terminate', status: move.terminate };
}

/** The pixel size of the last image a Chat Completions request carries (PNG or JPEG data URL). */
export function lastScreenshotSize(body: unknown): { width: number; height: number } | undefined {
  const urls: string[] = [];
  collectImageUrls(body, urls);
  const last = urls.at(-1);
  const match = last === undefined ? null : /^data:image\/[a-z]+;base64,(.+)$/s.exec(last);
  return match === null ? undefined : imageSize(Buffer.from(match[1]!, 'base64'));
}

function collectImageUrls(value: unknown, urls: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectImageUrls(item, urls);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as { type?: unknown; image_url?: { url?: unknown } };
  if (record.type === 'image_url' && typeof record.image_url?.url === 'string') urls.push(record.image_url.url);
  for (const child of Object.values(record)) collectImageUrls(child, urls);
}

/** Width and height from a PNG's IHDR or a JPEG's start-of-frame marker. */
function imageSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    const length = bytes.readUInt16BE(offset + 2);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
    }
    offset += 2 + length;
  }
  return undefined;
}
