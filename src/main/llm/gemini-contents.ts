/**
 * Provider-neutral messages → the Gemini API's `systemInstruction` and `contents`
 * (https://ai.google.dev/api/generate-content, https://ai.google.dev/gemini-api/docs/function-calling).
 *
 * - System text goes in `systemInstruction`; user and tool messages are `user` contents, replies `model` ones,
 *   and consecutive messages of one role become one content (a reply's parallel calls are answered together).
 * - A reply goes back as the model wrote it: its text parts and function calls, each with the thought signature
 *   it came with, and a call's own `id` when the API gave one (ToolCallProviderData).
 * - A tool's result is a `functionResponse` of the call's name: `response.output` (or `response.error`) holds its
 *   text, `response.url` the browser page's address, `response.safety_acknowledgement` a confirmed
 *   `safety_decision`; its images go as `inlineData` parts of the response (the documented shape for computer
 *   use, Gemini 3 and the computer-use models), or, for models that take no media in function responses, right
 *   after it in the same user content.
 * - A malformed function call the API could not produce (MALFORMED_FUNCTION_CALL twice) is no call of the model's:
 *   it and its answer go back as a user text saying what happened.
 */
import type { Content, Part } from '@google/genai';
import type { AssistantMessage, ImagePart, Message, MessagePart, ToolMessage } from '../../shared/messages.js';
import { imagePartSource } from './media-encoding.js';
import { ModelCapabilityError } from './model-errors.js';

/** The name of the call the adapter makes of a reply the API ended as MALFORMED_FUNCTION_CALL twice. */
export const MALFORMED_FUNCTION_CALL_NAME = 'malformed_function_call';

export interface GeminiConversation {
  systemInstruction: Content | undefined;
  contents: Content[];
}

export interface GeminiContentOptions {
  /** Whether a tool result's images may travel inside its functionResponse (multimodal function responses). */
  mediaInFunctionResponses: boolean;
}

export function toGeminiConversation(messages: readonly Message[], options: GeminiContentOptions): GeminiConversation {
  const system: Part[] = [];
  const contents: Content[] = [];
  // Gemini's own call ids, by Sightline's call id: a response names the call it answers by the API's id.
  const geminiIds = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls) if (call.providerData?.itemId !== undefined) geminiIds.set(call.id, call.providerData.itemId);
    }
  }
  const push = (role: 'user' | 'model', parts: Part[]): void => {
    if (parts.length === 0) return;
    const previous = contents.at(-1);
    if (previous?.role === role) previous.parts!.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        for (const part of message.parts) if (part.text !== '') system.push({ text: part.text });
        break;
      case 'user':
        push('user', message.parts.flatMap(userPart));
        break;
      case 'assistant':
        push('model', modelParts(message));
        push('user', malformedCallNotices(message));
        break;
      case 'tool':
        push('user', toolParts(message, geminiIds.get(message.toolCallId), options));
        break;
    }
  }
  return { systemInstruction: system.length === 0 ? undefined : { parts: system }, contents };
}

function userPart(part: MessagePart): Part[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ text: part.text }];
    case 'image':
      return [imagePart(part)];
    case 'audio':
      if (part.data === undefined) throw new ModelCapabilityError('An audio part without its bytes cannot be sent to the Gemini API.');
      return [{ inlineData: { mimeType: part.mime, data: part.data } }];
    case 'file':
      return [{ inlineData: { mimeType: part.mime, data: part.data } }];
  }
}

function imagePart(part: ImagePart): Part {
  const source = imagePartSource(part);
  if (source.kind === 'url') return { fileData: { fileUri: source.url, mimeType: part.mime ?? 'image/png' } };
  return { inlineData: { mimeType: source.mime, data: source.data } };
}

/** Text and calls as the model wrote them; media the model generated is not sent back (no API takes it from the model role). */
function modelParts(message: AssistantMessage): Part[] {
  const parts: Part[] = [];
  for (const part of message.parts) {
    if (part.type !== 'text' || (part.text === '' && part.thoughtSignature === undefined)) continue;
    parts.push({ text: part.text, ...(part.thoughtSignature === undefined ? {} : { thoughtSignature: part.thoughtSignature }) });
  }
  for (const call of message.toolCalls) {
    if (call.name === MALFORMED_FUNCTION_CALL_NAME) continue;
    const id = call.providerData?.itemId;
    parts.push({
      functionCall: { name: call.name, args: callArguments(call.argumentsText), ...(id === undefined ? {} : { id }) },
      ...(call.providerData?.thoughtSignature === undefined ? {} : { thoughtSignature: call.providerData.thoughtSignature }),
    });
  }
  return parts;
}

function malformedCallNotices(message: AssistantMessage): Part[] {
  return message.toolCalls
    .filter((call) => call.name === MALFORMED_FUNCTION_CALL_NAME)
    .map((call) => ({ text: `Your last reply was not a well-formed function call (${call.invalid ?? 'MALFORMED_FUNCTION_CALL'}).` }));
}

/**
 * The API wants the arguments as an object. What the model wrote is kept raw; anything else goes back as an
 * object holding that text, so the model still sees what it wrote.
 */
export function callArguments(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText === '' ? '{}' : argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the wrapped form.
  }
  return { unparsed_arguments: argumentsText };
}

function toolParts(message: ToolMessage, geminiId: string | undefined, options: GeminiContentOptions): Part[] {
  const texts: string[] = [];
  const media: Part[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') {
      if (part.text !== '') texts.push(part.text);
    } else if (part.type === 'image') {
      media.push(imagePart(part));
    } else if (part.type === 'file' || (part.type === 'audio' && part.data !== undefined)) {
      media.push({ inlineData: { mimeType: part.mime, data: part.data! } });
    } else {
      throw new ModelCapabilityError(`The result of tool "${message.name}" holds audio without its bytes.`);
    }
  }
  if (message.name === MALFORMED_FUNCTION_CALL_NAME) return [{ text: texts.join('\n') }, ...media];
  const text = texts.join('\n');
  const url = message.providerData?.currentUrl;
  const response: Record<string, unknown> = {
    ...(url === undefined ? {} : { url }),
    ...(message.isError === true ? { error: text } : { output: text }),
    ...(message.providerData?.safetyAcknowledged === true ? { safety_acknowledgement: 'true' } : {}),
  };
  const inline = options.mediaInFunctionResponses && media.every((part) => part.inlineData !== undefined);
  const functionResponse: Part = {
    functionResponse: {
      name: message.name,
      response,
      ...(geminiId === undefined ? {} : { id: geminiId }),
      ...(inline && media.length > 0 ? { parts: media.map((part) => ({ inlineData: part.inlineData! })) } : {}),
    },
  };
  return inline ? [functionResponse] : [functionResponse, ...media];
}
