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
import type { CompletedAssistantMessage, ModelStreamEvent } from './model-adapter.js';

/** How the API ended the reply, as it said it (FinishReason), for the adapter's retry of a malformed call. */
export interface AssembledGeminiReply {
  message: CompletedAssistantMessage;
  geminiFinishReason: string | undefined;
  finishMessage: string | undefined;
  blockReason: string | undefined;
}

export class GeminiReplyAssembler {
  private readonly texts: TextPart[] = [];
  private readonly calls: ToolCall[] = [];
  private finishReason: string | undefined;
  private finishMessage: string | undefined;
  private blockReason: string | undefined;
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
    if (candidate === undefined || candidate === null) return;
    if (typeof candidate.finishReason === 'string') this.finishReason = candidate.finishReason;
    if (typeof candidate.finishMessage === 'string') this.finishMessage = candidate.finishMessage;
    const parts = candidate.content?.parts;
    if (!Array.isArray(parts)) return;
    for (const part of parts) if (typeof part === 'object' && part !== null) this.addPart(part);
  }

  private addPart(part: Part): void {
    const signature = typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '' ? part.thoughtSignature : undefined;
    if (part.functionCall !== undefined && part.functionCall !== null && typeof part.functionCall === 'object') {
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
    };
  }
}

function toolCallOf(call: NonNullable<Part['functionCall']>, signature: string | undefined): ToolCall {
  const geminiId = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
  const providerData = {
    ...(geminiId === undefined ? {} : { itemId: geminiId }),
    ...(signature === undefined ? {} : { thoughtSignature: signature }),
  };
  const args = call.args;
  const argumentsText = args === undefined || args === null ? '{}' : JSON.stringify(args);
  const name = typeof call.name === 'string' && call.name !== '' ? call.name : undefined;
  return {
    // Gemini 2.5 gives its calls no id; the history needs one, so Sightline names them.
    id: geminiId ?? `gemini_call_${randomBytes(8).toString('hex')}`,
    name: name ?? 'unnamed_function',
    argumentsText,
    ...(name === undefined ? { invalid: 'The function call had no name; call one of the declared functions by its name.' } : {}),
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
