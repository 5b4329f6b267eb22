/**
 * The Gemini API's answer (one GenerateContentResponse, or the chunks of a streamed one) → an assistant message.
 *
 * Only the first candidate counts (Sightline asks for one). Text parts arriving in pieces are joined; a piece's
 * thought signature stays with the text it came in (https://ai.google.dev/gemini-api/docs/thought-signatures).
 * Thought summaries (`thought: true`) are the model's own reasoning, not its reply: they are not kept. Every
 * function call becomes a tool call named as the model named it, its `args` as JSON text, its own id and thought
 * signature in providerData; a call without a name is kept marked invalid, so it is answered, never run.
 *
 * Usage: promptTokenCount is the whole prompt, cached tokens included (cachedContentTokenCount, the implicit
 * cache's reads); tool-use prompt tokens are input too; thinking tokens are billed as output
 * (https://ai.google.dev/gemini-api/docs/pricing), so output is candidates + thoughts.
 */
import { randomBytes } from 'node:crypto';
import type { GenerateContentResponse, Part } from '@google/genai';
import type { MessagePart, TextPart, ToolCall } from '../../shared/messages.js';
import type { FinishReason, TokenUsage } from '../../shared/token-usage.js';
import { terminalLine } from '../../shared/terminal-text.js';
import type { CompletedAssistantMessage, ModelStreamEvent } from './model-adapter.js';

/** How the API ended the reply, as it said it (FinishReason), for the adapter's retry of a malformed call. */
export interface AssembledGeminiReply {
  message: CompletedAssistantMessage;
  geminiFinishReason: string | undefined;
  finishMessage: string | undefined;
  blockReason: string | undefined;
  /** What the chunks held, for telling a reply that cannot be read (unreadableReplyReason). */
  shape: GeminiReplyShape;
}

export interface GeminiReplyShape {
  /** Whether any chunk had a first candidate. */
  candidate: boolean;
  /** Whether any candidate had `content` with a `parts` list. */
  content: boolean;
  /** The parts of no kind the API documents, described by their keys (at most a few). */
  unknownParts: string[];
}

/** The kinds of part a model's content may hold (https://ai.google.dev/api/caching#Part); others are unknown. */
const KNOWN_PART_KEYS = ['text', 'functionCall', 'inlineData', 'fileData', 'executableCode', 'codeExecutionResult', 'thoughtSignature'] as const;
const MOST_UNKNOWN_PARTS_KEPT = 3;

export class GeminiReplyAssembler {
  private readonly texts: TextPart[] = [];
  private readonly calls: ToolCall[] = [];
  private finishReason: string | undefined;
  private finishMessage: string | undefined;
  private blockReason: string | undefined;
  private readonly shape: GeminiReplyShape = { candidate: false, content: false, unknownParts: [] };
  private usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  private model: string;
  /** Whether the last kept part was text, so the next text piece continues it. */
  private textOpen = false;

  constructor(
    model: string,
    private readonly onEvent?: (event: ModelStreamEvent) => void,
  ) {
    this.model = model;
  }

  add(chunk: GenerateContentResponse): void {
    if (typeof chunk.modelVersion === 'string' && chunk.modelVersion !== '') this.model = chunk.modelVersion;
    if (chunk.usageMetadata !== undefined) this.usage = usageOf(chunk.usageMetadata);
    const blocked = chunk.promptFeedback?.blockReason;
    if (typeof blocked === 'string') this.blockReason = blocked;
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    if (typeof candidate !== 'object' || candidate === null) return;
    this.shape.candidate = true;
    if (typeof candidate.finishReason === 'string') this.finishReason = candidate.finishReason;
    if (typeof candidate.finishMessage === 'string') this.finishMessage = candidate.finishMessage;
    const parts = candidate.content?.parts;
    if (!Array.isArray(parts)) return;
    this.shape.content = true;
    for (const part of parts as unknown[]) {
      if (typeof part === 'object' && part !== null && isKnownPart(part as Part)) this.addPart(part as Part);
      else this.noteUnknownPart(part);
    }
  }

  private noteUnknownPart(part: unknown): void {
    if (this.shape.unknownParts.length >= MOST_UNKNOWN_PARTS_KEPT) return;
    const keys = typeof part === 'object' && part !== null ? Object.keys(part).slice(0, 5) : [];
    this.shape.unknownParts.push(keys.length === 0 ? `a ${part === null ? 'null' : Array.isArray(part) ? 'list' : typeof part} part` : `a part with ${keys.join(', ')}`);
  }

  private addPart(part: Part): void {
    const signature = typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '' ? part.thoughtSignature : undefined;
    if (part.functionCall !== undefined) {
      this.calls.push(toolCallOf(part.functionCall, signature));
      this.textOpen = false;
      return;
    }
    if (part.thought === true) return;
    if (typeof part.text !== 'string') {
      // A signature on a part of its own (an empty one) belongs to the text before it.
      if (signature !== undefined) this.signLastText(signature);
      return;
    }
    if (part.text !== '') this.onEvent?.({ type: 'text-delta', text: part.text });
    const last = this.texts.at(-1);
    if (this.textOpen && last !== undefined && (last.thoughtSignature === undefined || signature === undefined)) {
      last.text += part.text;
      if (signature !== undefined) last.thoughtSignature = signature;
    } else {
      this.texts.push({ type: 'text', text: part.text, ...(signature === undefined ? {} : { thoughtSignature: signature }) });
    }
    this.textOpen = true;
  }

  private signLastText(signature: string): void {
    const last = this.texts.at(-1);
    if (last !== undefined && last.thoughtSignature === undefined) last.thoughtSignature = signature;
    else this.texts.push({ type: 'text', text: '', thoughtSignature: signature });
  }

  finish(): AssembledGeminiReply {
    const parts: MessagePart[] = this.texts.filter((part) => part.text !== '' || part.thoughtSignature !== undefined);
    return {
      message: {
        role: 'assistant',
        parts,
        toolCalls: this.calls,
        usage: this.usage,
        finishReason: finishReasonOf(this.finishReason, this.calls.length > 0),
        model: this.model,
      },
      geminiFinishReason: this.finishReason,
      finishMessage: this.finishMessage,
      blockReason: this.blockReason,
      shape: { ...this.shape, unknownParts: [...this.shape.unknownParts] },
    };
  }
}

/**
 * A part of a documented kind, each key of the right type: a text is a string, a call an object. A part that
 * names a kind with the wrong type (`text: 42`, `functionCall: "click"`) is of no kind Sightline can read.
 */
function isKnownPart(part: Part): boolean {
  const fields = part as Record<string, unknown>;
  if (!KNOWN_PART_KEYS.some((key) => fields[key] !== undefined)) return false;
  if (fields.text !== undefined && typeof fields.text !== 'string') return false;
  const call = fields.functionCall;
  if (call !== undefined && (typeof call !== 'object' || call === null || Array.isArray(call))) return false;
  return true;
}

/**
 * Why the reply cannot be read as the model's answer, or undefined when it can: only a reply that holds a
 * function call, or text and an ordinary end (STOP, MAX_TOKENS), is an answer. Without candidates, without
 * content, ended for a reason like SAFETY, RECITATION or OTHER before any call, or holding only parts of no
 * known kind, it is a model error: the turn fails naming what was wrong, never ends as finished. The API's
 * words (finishMessage, a part's keys) are cut and made safe to print.
 */
export function unreadableReplyReason(reply: AssembledGeminiReply): string | undefined {
  const { message, shape } = reply;
  if (message.toolCalls.length > 0) return undefined;
  const text = message.parts.some((part) => part.type === 'text' && part.text.trim() !== '');
  const reason = reply.geminiFinishReason;
  const ended = reason === undefined ? '' : ` (finishReason ${shown(reason)}${reply.finishMessage === undefined ? '' : `: ${shown(reply.finishMessage)}`})`;
  if (!shape.candidate) return `it had no candidates${reply.blockReason === undefined ? '' : ` (blockReason ${shown(reply.blockReason)})`}`;
  if (!shape.content) return `its candidate had no content${ended}`;
  if (reason !== undefined && !ORDINARY_ENDS.has(reason)) return `the API ended it${ended} before any function call${text ? '; its text is not an answer' : ''}`;
  if (text) return undefined;
  if (shape.unknownParts.length > 0) return `it held no text and no function call, only parts of no known kind (${shape.unknownParts.map(shown).join('; ')})${ended}`;
  return `it held no text and no function call${ended}`;
}

/** The ends after which a reply's text is the model's answer. */
const ORDINARY_ENDS = new Set(['STOP', 'MAX_TOKENS']);
const MOST_SHOWN_CHARACTERS = 200;

function shown(text: string): string {
  const line = terminalLine(text);
  return line.length <= MOST_SHOWN_CHARACTERS ? line : `${line.slice(0, MOST_SHOWN_CHARACTERS)}…`;
}

function toolCallOf(call: NonNullable<Part['functionCall']>, signature: string | undefined): ToolCall {
  const geminiId = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
  const providerData = {
    ...(geminiId === undefined ? {} : { itemId: geminiId }),
    ...(signature === undefined ? {} : { thoughtSignature: signature }),
  };
  const args: unknown = call.args;
  const argumentsText = args === undefined || args === null ? '{}' : JSON.stringify(args);
  const name = typeof call.name === 'string' && call.name !== '' ? call.name : undefined;
  const argsReadable = args === undefined || args === null || (typeof args === 'object' && !Array.isArray(args));
  const invalid =
    name === undefined
      ? 'The function call had no name; call one of the declared functions by its name.'
      : !argsReadable
        ? `The arguments of ${name} were not an object; write them as one object of named fields.`
        : undefined;
  return {
    // Gemini 2.5 gives its calls no id; the history needs one, so Sightline names them.
    id: geminiId ?? `gemini_call_${randomBytes(8).toString('hex')}`,
    name: name ?? 'unnamed_function',
    argumentsText,
    ...(invalid === undefined ? {} : { invalid }),
    ...(Object.keys(providerData).length === 0 ? {} : { providerData }),
  };
}

function usageOf(metadata: NonNullable<GenerateContentResponse['usageMetadata']>): TokenUsage {
  const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);
  const inputTokens = count(metadata.promptTokenCount) + count(metadata.toolUsePromptTokenCount);
  const cached = Math.min(count(metadata.cachedContentTokenCount), inputTokens);
  return {
    inputTokens,
    outputTokens: count(metadata.candidatesTokenCount) + count(metadata.thoughtsTokenCount),
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
  };
}

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION']);

function finishReasonOf(reason: string | undefined, hasCalls: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && FILTERED.has(reason)) return 'content-filter';
  if (hasCalls) return 'tool-calls';
  if (reason === undefined || reason === 'STOP') return 'stop';
  return 'other';
}
