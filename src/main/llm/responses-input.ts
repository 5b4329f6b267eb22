/**
 * Provider-neutral messages → Responses API input items. Unlike Chat Completions, a function call's
 * output may itself hold images and files (`input_image`, `input_file`), so tool media stays with the
 * tool result. Audio has no input form here; the capability check stops it before conversion.
 */
import type {
  ResponseFunctionCallOutputItem,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { Message, MessagePart, ToolMessage } from '../../shared/messages.js';
import { textOfParts } from '../../shared/messages.js';
import { fileDataUrl, imagePartUrl } from './media-encoding.js';
import { ModelCapabilityError } from './model-errors.js';

export function toResponsesInput(messages: readonly Message[], model: string): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        items.push({ role: 'system', content: textOfParts(message.parts) });
        break;
      case 'user':
        items.push({ role: 'user', content: userContent(message.parts, model) });
        break;
      case 'assistant': {
        const text = textOfParts(message.parts);
        if (text !== '') items.push({ role: 'assistant', content: text });
        for (const call of message.toolCalls) {
          items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.argumentsText });
        }
        break;
      }
      case 'tool':
        items.push({ type: 'function_call_output', call_id: message.toolCallId, output: toolOutput(message, model) });
        break;
    }
  }
  return items;
}

function userContent(parts: readonly MessagePart[], model: string): string | ResponseInputContent[] {
  if (parts.every((part) => part.type === 'text')) return textOfParts(parts);
  return parts.map((part) => inputContentOf(part, model));
}

/** Text-only results go as a string; with media, as a list of input items. */
function toolOutput(message: ToolMessage, model: string): string | ResponseFunctionCallOutputItem[] {
  const prefix = message.isError === true ? 'The tool failed.\n' : '';
  if (message.parts.every((part) => part.type === 'text')) {
    return prefix + (textOfParts(message.parts) || '(no output)');
  }
  const items: ResponseFunctionCallOutputItem[] = message.parts.map((part) => inputContentOf(part, model));
  return prefix === '' ? items : [{ type: 'input_text', text: prefix.trim() }, ...items];
}

function audioUnsupported(model: string): ModelCapabilityError {
  return new ModelCapabilityError(
    `The Responses API takes no audio input, but the request for model "${model}" contains audio. ` +
      `Set model.api to "chat-completions" to send audio.`,
  );
}

/** One part as Responses input content: the same shapes serve a user message and a function call's output. */
function inputContentOf(part: MessagePart, model: string): ResponseInputContent {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', image_url: imagePartUrl(part), detail: 'auto' };
    case 'file':
      return { type: 'input_file', filename: part.name, file_data: fileDataUrl(part) };
    case 'audio':
      throw audioUnsupported(model);
  }
}
