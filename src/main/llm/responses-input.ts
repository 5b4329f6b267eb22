/**
 * Provider-neutral messages → Responses API input items. Unlike Chat Completions, a function call's
 * output may itself hold images and files (`input_image`, `input_file`), so tool media stays with the
 * tool result. Audio has no input form here; the capability check stops it before conversion.
 *
 * Calls of OpenAI's computer tool go back in their own form (responses-computer-input.ts): a
 * `computer_call` with the reasoning items that preceded it, and a `computer_call_output` with the
 * screenshot. Reasoning that came before a function call goes back before it the same way. In a request
 * without the computer tool (a turn that answers a question), earlier computer calls go back as text.
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
import {
  computerCallAsText,
  computerCallItems,
  computerCallOutputItem,
  computerResultAsText,
  reasoningItemsOf,
  wasComputerCall,
  type ComputerToolInput,
} from './responses-computer-input.js';

export interface ResponsesInputOptions {
  /** The request's OpenAI computer tool, when it declares one: its calls go back as computer calls. */
  computerTool?: ComputerToolInput | undefined;
}

export function toResponsesInput(messages: readonly Message[], model: string, options: ResponsesInputOptions = {}): ResponseInputItem[] {
  const computer = options.computerTool;
  const results = toolResultsById(messages);
  /** Computer calls sent as computer calls: their results go back as computer_call_output. */
  const nativeCalls = new Set<string>();
  /** Computer calls sent as text: their results go back as user messages. */
  const textCalls = new Set<string>();
  const items: ResponseInputItem[] = [];
  // What a run of tool results says beyond what their own items carry, sent after the run as user messages.
  let notes: ResponseInputItem[] = [];
  const flushNotes = () => {
    items.push(...notes);
    notes = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flushNotes();
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
          if (computer !== undefined && call.name === computer.name) {
            const sent = computerCallItems(call, results.get(call.id));
            (sent.native ? nativeCalls : textCalls).add(call.id);
            items.push(...sent.items);
            continue;
          }
          if (computer === undefined && wasComputerCall(call)) {
            textCalls.add(call.id);
            items.push(computerCallAsText(call));
            continue;
          }
          items.push(...reasoningItemsOf(call));
          items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.argumentsText });
        }
        break;
      }
      case 'tool':
        if (nativeCalls.has(message.toolCallId) && computer !== undefined) {
          const sent = computerCallOutputItem(message, computer);
          items.push(sent.item);
          if (sent.note !== undefined) notes.push(sent.note);
        } else if (textCalls.has(message.toolCallId)) {
          notes.push({ role: 'user', content: computerResultAsText(message, (part) => inputContentOf(part, model)) });
        } else {
          items.push({ type: 'function_call_output', call_id: message.toolCallId, output: toolOutput(message, model) });
        }
        break;
    }
  }
  flushNotes();
  return items;
}

function toolResultsById(messages: readonly Message[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message);
  return results;
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
      // A reduced view goes at low detail: OpenAI bills it at the tile formula's base tokens alone.
      return { type: 'input_image', image_url: imagePartUrl(part), detail: part.resolution === 'reduced' ? 'low' : 'auto' };
    case 'file':
      return { type: 'input_file', filename: part.name, file_data: fileDataUrl(part) };
    case 'audio':
      throw audioUnsupported(model);
  }
}
