/**
 * Provider-neutral messages → Anthropic Messages API `system` and `messages`
 * (https://docs.anthropic.com/en/api/messages).
 *
 * Anthropic has no system role in the message list: system text goes in `system`. Tool results are
 * `tool_result` blocks of a user turn, images inside them included, and the roles must alternate, so
 * consecutive messages of one role (a reply's several tool results, the nudge after them) become one turn.
 * Cache breakpoints (anthropic-cache-breakpoints.ts) mark the last block a marked message produced.
 *
 * A call of a client toolset (Claude's computer toolset) goes back with its `toolset_name`, and so does every
 * tool_result that answers one: the API refuses a member result that omits it
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool, "Batch actions").
 *
 * Thinking blocks go back exactly as the API returned them, in order, before the call they preceded (the first
 * call's before the reply's text, where the reply had them), in every assistant turn of the tool-use cycle the
 * request continues: from the last user turn that is not only tool results on. The API refuses a request whose
 * last assistant turn lost or altered them; thinking of earlier assistant turns may be omitted ("Preserving
 * thinking blocks", https://platform.claude.com/docs/en/build-with-claude/extended-thinking), and is, since
 * compaction may change the history before it, which a bound block does not survive.
 */
import type {
  BetaContentBlockParam,
  BetaRedactedThinkingBlockParam,
  BetaThinkingBlockParam,
  BetaImageBlockParam,
  BetaMessageParam,
  BetaRequestDocumentBlock,
  BetaTextBlockParam,
  BetaToolResultBlockParam,
  BetaToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AnthropicThinkingBlock, AssistantMessage, FilePart, ImagePart, Message, MessagePart, ToolMessage } from '../../shared/messages.js';
import type { CacheBreakpoints } from './anthropic-cache-breakpoints.js';
import { imagePartSource } from './media-encoding.js';
import { ModelCapabilityError } from './model-errors.js';

export interface AnthropicConversation {
  system: BetaTextBlockParam[];
  messages: BetaMessageParam[];
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** The image types the API accepts as base64. */
const ANTHROPIC_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type AnthropicImageType = (typeof ANTHROPIC_IMAGE_TYPES)[number];

export function toAnthropicConversation(messages: readonly Message[], breakpoints: CacheBreakpoints): AnthropicConversation {
  const marked = new Set(breakpoints.messageIndexes);
  const toolsets = toolsetsOfCalls(messages);
  const system: BetaTextBlockParam[] = [];
  const turns: BetaMessageParam[] = [];
  let pendingMark = false;
  messages.forEach((message, index) => {
    if (message.role === 'system') {
      for (const part of message.parts) if (part.text !== '') system.push({ type: 'text', text: part.text });
      return;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = contentBlocks(message, toolsets);
    // A message that says nothing (an empty reply) adds no turn; a breakpoint it held moves to the block before.
    pendingMark ||= marked.has(index);
    if (blocks.length === 0) return;
    if (pendingMark) markLast(blocks);
    pendingMark = false;
    const previous = turns.at(-1);
    if (previous !== undefined && previous.role === role) (previous.content as BetaContentBlockParam[]).push(...blocks);
    else turns.push({ role, content: blocks });
  });
  if (pendingMark) {
    const lastTurn = turns.at(-1);
    if (lastTurn !== undefined) markLast(lastTurn.content as BetaContentBlockParam[]);
  }
  if (breakpoints.systemPrompt) markLast(system);
  return { system, messages: withThinkingOfTheToolCycleOnly(turns) };
}

/** Which toolset each call of the history belongs to, by call id: what the call's result must echo. */
function toolsetsOfCalls(messages: readonly Message[]): Map<string, string> {
  const toolsets = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      const name = call.providerData?.toolsetName;
      if (name !== undefined) toolsets.set(call.id, name);
    }
  }
  return toolsets;
}

/** Thinking blocks stay in the assistant turns after the last user turn that is not only tool results; earlier ones go. */
function withThinkingOfTheToolCycleOnly(turns: BetaMessageParam[]): BetaMessageParam[] {
  const cycleStart = turns.findLastIndex(
    (turn) => turn.role === 'user' && !(turn.content as BetaContentBlockParam[]).some((block) => block.type === 'tool_result'),
  );
  return turns.map((turn, index) => {
    if (index >= cycleStart || turn.role !== 'assistant') return turn;
    const content = (turn.content as BetaContentBlockParam[]).filter((block) => block.type !== 'thinking' && block.type !== 'redacted_thinking');
    return { ...turn, content };
  });
}

function contentBlocks(message: Exclude<Message, { role: 'system' }>, toolsets: ReadonlyMap<string, string>): BetaContentBlockParam[] {
  switch (message.role) {
    case 'user':
      return message.parts.flatMap(userBlocks);
    case 'assistant':
      return assistantBlocks(message);
    case 'tool':
      return [toolResultBlock(message, toolsets.get(message.toolCallId))];
  }
}

function userBlocks(part: MessagePart): BetaContentBlockParam[] {
  switch (part.type) {
    // The API refuses empty text blocks.
    case 'text':
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'image':
      return [imageBlock(part)];
    case 'file':
      return [documentBlock(part)];
    case 'audio':
      throw new ModelCapabilityError('Anthropic\'s Messages API takes no audio input: the request holds an audio part.');
  }
}

/**
 * Only thinking, text and calls go back: the API takes no media from the assistant role. A reply's thinking
 * opens it, as the API requires of a turn with thinking; each later call's thinking comes right before it.
 */
function assistantBlocks(message: AssistantMessage): BetaContentBlockParam[] {
  const [first, ...rest] = message.toolCalls;
  const blocks: BetaContentBlockParam[] = thinkingBlocks(first?.providerData?.anthropicThinking);
  for (const part of message.parts) if (part.type === 'text' && part.text !== '') blocks.push({ type: 'text', text: part.text });
  if (first !== undefined) blocks.push(toolUseBlock(first));
  for (const call of rest) blocks.push(...thinkingBlocks(call.providerData?.anthropicThinking), toolUseBlock(call));
  return blocks;
}

function toolUseBlock(call: AssistantMessage['toolCalls'][number]): BetaToolUseBlockParam {
  const toolsetName = call.providerData?.toolsetName;
  return {
    type: 'tool_use',
    id: call.id,
    name: call.name,
    input: toolInput(call.argumentsText),
    ...(toolsetName === undefined ? {} : { toolset_name: toolsetName }),
  };
}

/** Field for field as the API returned them: a thinking block's signature binds its text. */
function thinkingBlocks(blocks: readonly AnthropicThinkingBlock[] | undefined): Array<BetaThinkingBlockParam | BetaRedactedThinkingBlockParam> {
  return (blocks ?? []).map((block) =>
    block.type === 'thinking'
      ? ({ type: 'thinking', thinking: block.thinking, signature: block.signature } satisfies BetaThinkingBlockParam)
      : ({ type: 'redacted_thinking', data: block.data } satisfies BetaRedactedThinkingBlockParam),
  );
}

/**
 * The API wants the input as an object. What the model wrote is kept raw in the history so malformed JSON can
 * be reported; such a call goes back as an object holding that text, so the model still sees what it wrote.
 */
export function toolInput(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText === '' ? '{}' : argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the wrapped form.
  }
  return { unparsed_arguments: argumentsText };
}

/** `toolsetName`: the toolset of the call it answers, which a member's result echoes; such a result holds only text and images. */
function toolResultBlock(message: ToolMessage, toolsetName: string | undefined): BetaToolResultBlockParam {
  const content: Array<BetaTextBlockParam | BetaImageBlockParam | BetaRequestDocumentBlock> = [];
  for (const part of message.parts) {
    if (part.type === 'text' && part.text !== '') content.push({ type: 'text', text: part.text });
    else if (part.type === 'image') content.push(imageBlock(part));
    else if (part.type === 'file') content.push(documentBlock(part));
    else if (part.type === 'audio') {
      throw new ModelCapabilityError(`Anthropic's Messages API takes no audio: the result of tool "${message.name}" holds an audio part.`);
    }
  }
  return {
    type: 'tool_result',
    tool_use_id: message.toolCallId,
    ...(content.length > 0 ? { content } : {}),
    ...(message.isError === true ? { is_error: true } : {}),
    ...(toolsetName === undefined ? {} : { toolset_name: toolsetName }),
  };
}

function imageBlock(part: ImagePart): BetaImageBlockParam {
  const source = imagePartSource(part);
  if (source.kind === 'url') return { type: 'image', source: { type: 'url', url: source.url } };
  const mime = source.mime.toLowerCase();
  if (!isAnthropicImageType(mime)) {
    throw new ModelCapabilityError(`Anthropic takes JPEG, PNG, GIF and WebP images; image ${part.imageId ?? '(no id)'} is ${source.mime}.`);
  }
  return { type: 'image', source: { type: 'base64', media_type: mime, data: source.data } };
}

function isAnthropicImageType(mime: string): mime is AnthropicImageType {
  return (ANTHROPIC_IMAGE_TYPES as readonly string[]).includes(mime);
}

/** PDFs go as documents, the one file type the API reads as base64. */
function documentBlock(part: FilePart): BetaRequestDocumentBlock {
  if (part.mime.toLowerCase() !== 'application/pdf') {
    throw new ModelCapabilityError(`Anthropic reads files as PDF documents only; "${part.name}" is ${part.mime}.`);
  }
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data }, title: part.name };
}

function markLast(blocks: Array<BetaContentBlockParam | BetaTextBlockParam>): void {
  const last = blocks.at(-1);
  if (last !== undefined) (last as { cache_control?: typeof EPHEMERAL }).cache_control = EPHEMERAL;
}
