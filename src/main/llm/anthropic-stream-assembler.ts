/**
 * Rebuilds one assistant message from Anthropic's streamed events
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming): `message_start` (usage of the input),
 * `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`) / `content_block_stop` per
 * block by index, `message_delta` (stop reason, output usage), `message_stop`.
 *
 * What the model wrote is kept as written: a tool call's input JSON stays raw text (malformed JSON is
 * reported to the model by the agent), a toolset member call keeps its `toolset_name`, and `thinking` (with its
 * `signature_delta`) and `redacted_thinking` blocks are kept whole, in order, on the call that follows them, since
 * the API requires them back unmodified in a tool loop (https://platform.claude.com/docs/en/build-with-claude/
 * extended-thinking#preserving-thinking-blocks). Blocks of types Sightline does not use (server tools) are skipped.
 * Nothing the endpoint sends makes it throw.
 */
import { randomUUID } from 'node:crypto';
import type { BetaRawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { MAX_THINKING_BLOCKS_PER_CALL, type AnthropicThinkingBlock, type MessagePart, type ToolCall } from '../../shared/messages.js';
import type { FinishReason, TokenUsage } from '../../shared/token-usage.js';
import type { CompletedAssistantMessage, ModelStreamEvent } from './model-adapter.js';

interface PartialToolUse {
  id: string;
  name: string;
  /** The input as streamed (`input_json_delta`), or the start block's input when nothing streamed. */
  inputText: string;
  startInput: unknown;
  /** A toolset member call's family (`computer`). */
  toolsetName: string | undefined;
  /** The thinking blocks that came before this call (after the call before it). */
  thinking: AnthropicThinkingBlock[];
}

/** A thinking block being streamed: its text and signature arrive as deltas. */
interface PartialThinking {
  block: AnthropicThinkingBlock;
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
  private readonly thinkingBlocks = new Map<number, PartialThinking>();
  /** Thinking blocks not yet followed by a call, by index. */
  private pendingThinking: number[] = [];
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
        const block = event.content_block as {
          type: string;
          id?: unknown;
          name?: unknown;
          input?: unknown;
          text?: unknown;
          toolset_name?: unknown;
          thinking?: unknown;
          signature?: unknown;
          data?: unknown;
        } | null;
        // A block that is not an object (a hostile endpoint) is no block.
        if (typeof block !== 'object' || block === null) break;
        if (block.type === 'tool_use') {
          // An id the reply already used would make every result after it ambiguous (and the history unsendable).
          const fresh = typeof block.id === 'string' && block.id !== '' && ![...this.toolUses.values()].some((toolUse) => toolUse.id === block.id);
          this.toolUses.set(event.index, {
            id: fresh ? (block.id as string) : `toolu_${randomUUID()}`,
            name: typeof block.name === 'string' ? block.name : '',
            inputText: '',
            startInput: block.input,
            toolsetName: typeof block.toolset_name === 'string' && block.toolset_name !== '' ? block.toolset_name : undefined,
            thinking: this.takePendingThinking(),
          });
        } else if (block.type === 'thinking') {
          const thinking = typeof block.thinking === 'string' ? block.thinking : '';
          const signature = typeof block.signature === 'string' ? block.signature : '';
          this.addThinking(event.index, { type: 'thinking', thinking, signature });
        } else if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
          this.addThinking(event.index, { type: 'redacted_thinking', data: block.data });
        } else if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
          this.addText(block.text);
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta as { type: string; text?: unknown; partial_json?: unknown; thinking?: unknown; signature?: unknown } | null;
        if (typeof delta !== 'object' || delta === null) break;
        if (delta.type === 'text_delta' && typeof delta.text === 'string') this.addText(delta.text);
        const thinking = this.thinkingBlocks.get(event.index)?.block;
        if (thinking?.type === 'thinking' && delta.type === 'thinking_delta' && typeof delta.thinking === 'string') thinking.thinking += delta.thinking;
        // The signature arrives whole, just before the block stops.
        if (thinking?.type === 'thinking' && delta.type === 'signature_delta' && typeof delta.signature === 'string') thinking.signature = delta.signature;
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
      .map(([, toolUse]) => {
        const providerData = {
          ...(toolUse.toolsetName === undefined ? {} : { toolsetName: toolUse.toolsetName }),
          ...(toolUse.thinking.length === 0 ? {} : { anthropicThinking: toolUse.thinking }),
        };
        return {
          id: toolUse.id,
          name: toolUse.name || 'unnamed',
          argumentsText: argumentsTextOf(toolUse),
          ...(Object.keys(providerData).length === 0 ? {} : { providerData }),
        };
      });
    return {
      role: 'assistant',
      parts,
      toolCalls,
      usage: this.usage(),
      finishReason: finishReason(this.stopReason, toolCalls.length > 0),
      model: this.model,
    };
  }

  private addThinking(index: number, block: AnthropicThinkingBlock): void {
    this.thinkingBlocks.set(index, { block });
    this.pendingThinking.push(index);
  }

  /**
   * The thinking blocks since the last call, for the call starting now. A reply's thinking after its last call
   * (or in a reply without calls) goes nowhere: the API needs back only the thinking of a tool loop's last
   * assistant turn, whose calls it precedes. Beyond the most a call may keep, blocks are junk and dropped.
   */
  private takePendingThinking(): AnthropicThinkingBlock[] {
    // A thinking block whose signature never came (a cut stream, a hostile endpoint) could only be refused.
    const blocks = this.pendingThinking.map((index) => this.thinkingBlocks.get(index)!.block).filter((block) => block.type === 'redacted_thinking' || block.signature !== '');
    this.pendingThinking = [];
    return blocks.slice(0, MAX_THINKING_BLOCKS_PER_CALL);
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
