/**
 * Rebuilds one assistant message from Anthropic's streamed events
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming): `message_start` (usage of the input),
 * `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`) / `content_block_stop` per
 * block by index, `message_delta` (stop reason, output usage), `message_stop`.
 *
 * What the model wrote is kept as written: a tool call's input JSON stays raw text (malformed JSON is
 * reported to the model by the agent), blocks of types Sightline does not use (thinking, server tools) are
 * skipped. Nothing the endpoint sends makes it throw.
 */
import { randomUUID } from 'node:crypto';
import type { BetaRawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MessagePart, ToolCall } from '../../shared/messages.js';
import type { FinishReason, TokenUsage } from '../../shared/token-usage.js';
import type { CompletedAssistantMessage, ModelStreamEvent } from './model-adapter.js';

interface PartialToolUse {
  id: string;
  name: string;
  /** The input as streamed (`input_json_delta`), or the start block's input when nothing streamed. */
  inputText: string;
  startInput: unknown;
}

/** The usage fields Anthropic reports, each possibly absent or null. */
interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

export class AnthropicStreamAssembler {
  private text = '';
  private readonly toolUses = new Map<number, PartialToolUse>();
  private stopReason: string | null = null;
  private inputTokens = 0;
  private outputTokens = 0;
  private cacheReadTokens: number | undefined;
  private cacheWriteTokens: number | undefined;
  private model: string;

  constructor(
    model: string,
    private readonly onEvent: ((event: ModelStreamEvent) => void) | undefined,
  ) {
    this.model = model;
  }

  add(event: BetaRawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        if (typeof event.message.model === 'string' && event.message.model !== '') this.model = event.message.model;
        this.addUsage(event.message.usage as AnthropicUsage | undefined);
        break;
      case 'content_block_start': {
        const block = event.content_block as { type: string; id?: unknown; name?: unknown; input?: unknown; text?: unknown };
        if (block.type === 'tool_use') {
          this.toolUses.set(event.index, {
            id: typeof block.id === 'string' && block.id !== '' ? block.id : `toolu_${randomUUID()}`,
            name: typeof block.name === 'string' ? block.name : '',
            inputText: '',
            startInput: block.input,
          });
        } else if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
          this.addText(block.text);
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta as { type: string; text?: unknown; partial_json?: unknown };
        if (delta.type === 'text_delta' && typeof delta.text === 'string') this.addText(delta.text);
        if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const toolUse = this.toolUses.get(event.index);
          if (toolUse !== undefined) toolUse.inputText += delta.partial_json;
        }
        break;
      }
      case 'message_delta':
        if (typeof event.delta.stop_reason === 'string') this.stopReason = event.delta.stop_reason;
        this.addUsage(event.usage as AnthropicUsage | undefined);
        break;
      default:
        break;
    }
  }

  finish(): CompletedAssistantMessage {
    const parts: MessagePart[] = this.text === '' ? [] : [{ type: 'text', text: this.text }];
    const toolCalls: ToolCall[] = [...this.toolUses.entries()]
      .sort(([first], [second]) => first - second)
      .map(([, toolUse]) => ({ id: toolUse.id, name: toolUse.name || 'unnamed', argumentsText: argumentsTextOf(toolUse) }));
    return {
      role: 'assistant',
      parts,
      toolCalls,
      usage: this.usage(),
      finishReason: finishReason(this.stopReason, toolCalls.length > 0),
      model: this.model,
    };
  }

  private addText(text: string): void {
    if (text === '') return;
    this.text += text;
    this.onEvent?.({ type: 'text-delta', text });
  }

  /** message_start carries the input's usage, message_delta the running totals: the latest value of each wins. */
  private addUsage(usage: AnthropicUsage | undefined): void {
    if (usage === undefined || usage === null) return;
    if (isCount(usage.input_tokens)) this.inputTokens = usage.input_tokens;
    if (isCount(usage.output_tokens)) this.outputTokens = usage.output_tokens;
    if (isCount(usage.cache_read_input_tokens)) this.cacheReadTokens = usage.cache_read_input_tokens;
    if (isCount(usage.cache_creation_input_tokens)) this.cacheWriteTokens = usage.cache_creation_input_tokens;
  }

  /** Anthropic's input_tokens leave out what was read from or written to the cache; Sightline's count all input. */
  private usage(): TokenUsage {
    const read = this.cacheReadTokens ?? 0;
    const written = this.cacheWriteTokens ?? 0;
    return {
      inputTokens: this.inputTokens + read + written,
      outputTokens: this.outputTokens,
      ...(this.cacheReadTokens === undefined ? {} : { cachedInputTokens: this.cacheReadTokens }),
      ...(this.cacheWriteTokens === undefined ? {} : { cacheWriteInputTokens: this.cacheWriteTokens }),
    };
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function argumentsTextOf(toolUse: PartialToolUse): string {
  if (toolUse.inputText !== '') return toolUse.inputText;
  const input = toolUse.startInput;
  return typeof input === 'object' && input !== null ? JSON.stringify(input) : '{}';
}

function finishReason(raw: string | null, hasToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    case 'end_turn':
    case 'stop_sequence':
      return hasToolCalls ? 'tool-calls' : 'stop';
    default:
      return hasToolCalls ? 'tool-calls' : 'other';
  }
}
