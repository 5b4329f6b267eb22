/**
 * Rough token counts for text, for the token report. The provider's own count arrives only after a call
 * (in its usage); before it, four characters per token is the usual estimate for English and code.
 */
import type { Message } from '../../shared/messages.js';

const CHARACTERS_PER_TOKEN_ESTIMATE = 4;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN_ESTIMATE);
}

/** The text of a message as the model reads it: its text parts and, for the assistant, its tool calls. */
export function estimateMessageTextTokens(message: Message): number {
  let characters = 0;
  for (const part of message.parts) if (part.type === 'text') characters += part.text.length;
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) characters += call.name.length + call.argumentsText.length;
  }
  return Math.ceil(characters / CHARACTERS_PER_TOKEN_ESTIMATE);
}
