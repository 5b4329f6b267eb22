/**
 * A scripted computer-use model on top of the fake OpenAI server: each reply is one planned move (a
 * `computer` action, or `finish`), given only when the request carries a screenshot, the way a real
 * vision model can only act on what it was shown. Used by the demo (`npm run demo`) and the run tests.
 *
 *   server.script(scriptedMoves([{ action: { action: 'click', x: 640, y: 233 } }, { finish: 'Done' }]));
 *
 * Tool names are read from the request, so a move fails loudly (an HTTP 400 the agent reports) when the
 * agent stopped offering the tool the script needs. Usage is estimated from what was sent: text at about
 * four characters a token, images by the model profile's formula, so token figures move like real ones.
 */
import type { ComputerAction } from '../../src/shared/actions.js';
import { estimateImageTokens } from '../../src/main/llm/image-token-estimates.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import type { FakeReply, RecordedRequest } from './fake-openai-server.js';

export type ScriptedMove =
  | { action: ComputerAction; thought?: string }
  /** Ends the turn: finished, or failed with `success: false`. */
  | { finish: string; success?: boolean; thought?: string }
  /** Any other tool call, arguments as given (ask_user, get_history_image …). */
  | { tool: string; arguments: Record<string, unknown>; thought?: string }
  /**
   * Another tool call whose arguments come from what the request shows (an id read from a placeholder), as
   * a model can only name what it was shown. Throws when the request lacks it: the agent then gets a 400
   * with that message.
   */
  | { tool: string; argumentsFrom: (request: RequestSummary) => Record<string, unknown>; thought?: string }
  /** A plain reply without a tool call. */
  | { say: string }
  /** Never answers: the request hangs until the client gives up (for stop and timeout tests). */
  | { hang: true };

export const COMPUTER_TOOL = 'computer';
export const FINISH_TOOL = 'finish';

/** The size the scripted model assumes its screenshots have, for the token estimate. */
const ASSUMED_IMAGE_SIZE = { width: 1280, height: 800 };
const CHARACTERS_PER_TOKEN = 4;
const BASE64_IMAGE = /data:image\/[a-z+.-]+;base64,[A-Za-z0-9+/=]+|"data":"[A-Za-z0-9+/=]{200,}"|"image_url":"[^"]{200,}"/g;

export interface RequestSummary {
  /** Image parts anywhere in the request (Chat Completions `image_url`, Responses `input_image`). */
  images: number;
  /** Names of the tools the request offers. */
  toolNames: string[];
  /** The request body with image data cut out: what tests search for earlier turns' text. */
  text: string;
  model: string;
}

export function summarizeRequest(request: RecordedRequest): RequestSummary {
  const body = (request.body ?? {}) as { tools?: unknown[]; model?: unknown };
  const toolNames = (body.tools ?? []).map(toolName).filter((name): name is string => name !== undefined);
  return {
    images: countImages(request.body),
    toolNames,
    text: request.rawBody.replace(BASE64_IMAGE, '"…"'),
    model: typeof body.model === 'string' ? body.model : 'gpt-4.1',
  };
}

/** One fake-server reply per move, in order. `onRequest` sees each request the model answers. */
export function scriptedMoves(
  moves: readonly ScriptedMove[],
  onRequest?: (summary: RequestSummary, moveIndex: number) => void,
): Array<(request: RecordedRequest) => FakeReply> {
  return moves.map((move, moveIndex) => (request) => {
    const summary = summarizeRequest(request);
    onRequest?.(summary, moveIndex);
    if ('hang' in move) return { type: 'hang' };
    if (summary.images === 0) return refusal('the scripted model was sent no screenshot; it cannot act blind');
    const usage = { inputTokens: estimateInputTokens(summary), outputTokens: 0 };
    if ('say' in move) return { type: 'answer', text: move.say, usage: { ...usage, outputTokens: tokensOf(move.say) } };
    let call: { name: string; arguments: Record<string, unknown> };
    try {
      call = toolCallOf(move, summary);
    } catch (error) {
      return refusal(`the scripted model cannot make its move: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!summary.toolNames.includes(call.name)) {
      return refusal(`the scripted model needs the tool "${call.name}", but the request offers: ${summary.toolNames.join(', ') || 'none'}`);
    }
    const argumentsText = JSON.stringify(call.arguments);
    return {
      type: 'answer',
      ...(move.thought !== undefined ? { text: move.thought } : {}),
      toolCalls: [{ name: call.name, arguments: argumentsText }],
      usage: { ...usage, outputTokens: tokensOf(argumentsText) + tokensOf(move.thought ?? '') },
    };
  });
}

function toolCallOf(
  move: Exclude<ScriptedMove, { say: string } | { hang: true }>,
  request: RequestSummary,
): { name: string; arguments: Record<string, unknown> } {
  if ('action' in move) return { name: COMPUTER_TOOL, arguments: move.action };
  if ('finish' in move) return { name: FINISH_TOOL, arguments: { summary: move.finish, success: move.success ?? true } };
  if ('argumentsFrom' in move) return { name: move.tool, arguments: move.argumentsFrom(request) };
  return { name: move.tool, arguments: move.arguments };
}

function refusal(message: string): FakeReply {
  // 400 is not retried, so the agent sees the problem at once instead of after backoff.
  return { type: 'error', status: 400, message };
}

function estimateInputTokens(summary: RequestSummary): number {
  const imageTokens = estimateImageTokens(resolveModelProfile(summary.model).imageTokens, ASSUMED_IMAGE_SIZE);
  return tokensOf(summary.text) + summary.images * imageTokens;
}

function tokensOf(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

function toolName(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const record = tool as { name?: unknown; function?: { name?: unknown } };
  if (typeof record.function?.name === 'string') return record.function.name; // Chat Completions
  return typeof record.name === 'string' ? record.name : undefined; // Responses
}

function countImages(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countImages(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const record = value as Record<string, unknown>;
  const own = record.type === 'image_url' || record.type === 'input_image' ? 1 : 0;
  return own + Object.values(record).reduce((sum: number, item) => sum + countImages(item), 0);
}
