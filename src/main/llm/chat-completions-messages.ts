/**
 * Provider-neutral messages → Chat Completions messages.
 *
 * A Chat Completions tool message holds text only, so media a tool returns (a screenshot, a crop) travels
 * in a user message placed right after the tool messages of that assistant turn. It cannot go between
 * them: the API requires every tool call of an assistant message to be answered before anything else.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { AssistantMessage, Message, MessagePart, ToolMessage } from '../../shared/messages.js';
import { textOfParts } from '../../shared/messages.js';
import { audioInputFormat, audioPartData, fileDataUrl, imagePartUrl } from './media-encoding.js';

export function toChatCompletionsMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const result: ChatCompletionMessageParam[] = [];
  let pendingToolMedia: ChatCompletionContentPart[] = [];
  const flushToolMedia = () => {
    if (pendingToolMedia.length > 0) result.push({ role: 'user', content: pendingToolMedia });
    pendingToolMedia = [];
  };

  for (const message of messages) {
    if (message.role !== 'tool') flushToolMedia();
    switch (message.role) {
      case 'system':
        result.push({ role: 'system', content: textOfParts(message.parts) });
        break;
      case 'user':
        result.push({ role: 'user', content: userContent(message.parts) });
        break;
      case 'assistant':
        result.push(assistantMessage(message));
        break;
      case 'tool': {
        const media = message.parts.filter((part) => part.type !== 'text');
        result.push({ role: 'tool', tool_call_id: message.toolCallId, content: toolText(message, media.length) });
        if (media.length > 0) {
          pendingToolMedia.push({ type: 'text', text: toolMediaCaption(message, media.length) });
          pendingToolMedia.push(...media.map(contentPart));
        }
        break;
      }
    }
  }
  flushToolMedia();
  return result;
}

/** Text-only user content goes as a plain string: the form every OpenAI-compatible server understands. */
function userContent(parts: readonly MessagePart[]): string | ChatCompletionContentPart[] {
  if (parts.every((part) => part.type === 'text')) return textOfParts(parts);
  return parts.map(contentPart);
}

function contentPart(part: MessagePart): ChatCompletionContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      // A reduced view goes at OpenAI's low detail (its base tokens alone); other servers ignore the field,
      // and the copy is already small for them.
      return { type: 'image_url', image_url: { url: imagePartUrl(part), ...(part.resolution === 'reduced' ? { detail: 'low' as const } : {}) } };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: audioPartData(part), format: audioInputFormat(part) } };
    case 'file':
      return { type: 'file', file: { filename: part.name, file_data: fileDataUrl(part) } };
  }
}

function assistantMessage(message: AssistantMessage): ChatCompletionMessageParam {
  // Only text goes back: the API takes no media from the assistant role.
  const text = textOfParts(message.parts);
  const toolCalls: ChatCompletionMessageToolCall[] = message.toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.argumentsText },
  }));
  return {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function toolText(message: ToolMessage, mediaCount: number): string {
  const text = textOfParts(message.parts);
  const lines: string[] = [];
  if (message.isError === true) lines.push('The tool failed.');
  if (text !== '') lines.push(text);
  if (mediaCount > 0) lines.push(`(${describeMediaCount(message.parts)} returned: see the next user message.)`);
  return lines.length > 0 ? lines.join('\n') : '(no output)';
}

function toolMediaCaption(message: ToolMessage, mediaCount: number): string {
  const noun = mediaCount === 1 ? 'Attachment' : 'Attachments';
  return `${noun} returned by tool "${message.name}" (call ${message.toolCallId}):`;
}

function describeMediaCount(parts: readonly MessagePart[]): string {
  const counts = new Map<string, number>();
  for (const part of parts) if (part.type !== 'text') counts.set(part.type, (counts.get(part.type) ?? 0) + 1);
  return [...counts].map(([type, count]) => (count === 1 ? `1 ${type}` : `${count} ${type}s`)).join(', ');
}
