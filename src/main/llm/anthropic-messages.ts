/**
 * Provider-neutral messages → Anthropic Messages API `system` and `messages`
 * (https://docs.anthropic.com/en/api/messages).
 *
 * Anthropic has no system role in the message list: system text goes in `system`. Tool results are
 * `tool_result` blocks of a user turn, images inside them included, and the roles must alternate, so
 * consecutive messages of one role (a reply's several tool results, the nudge after them) become one turn.
 * Cache breakpoints (anthropic-cache-breakpoints.ts) mark the last block a marked message produced.
 */
import type {
  BetaContentBlockParam,
  BetaImageBlockParam,
  BetaMessageParam,
  BetaRequestDocumentBlock,
  BetaTextBlockParam,
  BetaToolResultBlockParam,
  BetaToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AssistantMessage, FilePart, ImagePart, Message, MessagePart, ToolMessage } from '../../shared/messages.js';
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
  const system: BetaTextBlockParam[] = [];
  const turns: BetaMessageParam[] = [];
  let pendingMark = false;
  messages.forEach((message, index) => {
    if (message.role === 'system') {
      for (const part of message.parts) if (part.text !== '') system.push({ type: 'text', text: part.text });
      return;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = contentBlocks(message);
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
  return { system, messages: turns };
}

function contentBlocks(message: Exclude<Message, { role: 'system' }>): BetaContentBlockParam[] {
  switch (message.role) {
    case 'user':
      return message.parts.flatMap(userBlocks);
    case 'assistant':
      return assistantBlocks(message);
    case 'tool':
      return [toolResultBlock(message)];
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

/** Only text and calls go back: the API takes no media from the assistant role. */
function assistantBlocks(message: AssistantMessage): BetaContentBlockParam[] {
  const blocks: BetaContentBlockParam[] = [];
  for (const part of message.parts) if (part.type === 'text' && part.text !== '') blocks.push({ type: 'text', text: part.text });
  for (const call of message.toolCalls) {
    const block: BetaToolUseBlockParam = { type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.argumentsText) };
    blocks.push(block);
  }
  return blocks;
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

function toolResultBlock(message: ToolMessage): BetaToolResultBlockParam {
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
