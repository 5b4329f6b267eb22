/**
 * `qwen-computer-use` on the wire. The tools are declared as functions either way: servers render them
 * into Qwen's chat template (the `<tools>` block it was trained on). What comes back depends on the server:
 * with a tool parser (vLLM `--tool-call-parser hermes`, Ollama, LM Studio) the calls arrive as native tool
 * calls and pass through untouched; without one they arrive as `<tool_call>` JSON in the content, which is
 * read here into calls marked `inText`. Those calls, and their results, go back as text the way Qwen's
 * template would have written them, so the history the model reads is the one it would have produced.
 */
import type { AssistantMessage, Message, ToolMessage } from '../../../shared/messages.js';
import { textOfParts } from '../../../shared/messages.js';
import type { CompletedAssistantMessage } from '../model-adapter.js';
import type { DialectWire } from './dialect-wire.js';
import { readToolCallText, toolResponseParts, writeToolCallText } from './qwen-tool-call-text.js';

export const QWEN_COMPUTER_USE_WIRE: DialectWire = {
  dialect: 'qwen-computer-use',
  encodeRequest: (request) => ({ ...request, messages: withTextCallsAsText(request.messages) }),
  decodeReply: readTextCalls,
};

/** Native calls as they are; otherwise the `<tool_call>` blocks of the text, if it has any. */
function readTextCalls(reply: CompletedAssistantMessage): CompletedAssistantMessage {
  if (reply.toolCalls.length > 0) return reply;
  const text = textOfParts(reply.parts);
  if (!text.includes('<tool_call>')) return reply;
  const { thought, calls } = readToolCallText(text);
  const media = reply.parts.filter((part) => part.type !== 'text');
  return {
    ...reply,
    parts: [...(thought === '' ? [] : [{ type: 'text' as const, text: thought }]), ...media],
    toolCalls: calls,
    // The server saw a plain answer ("stop"); the turn sees calls.
    finishReason: reply.finishReason === 'stop' ? 'tool-calls' : reply.finishReason,
  };
}

/**
 * Assistant messages whose calls were written in text go back as that text, without tool calls; the tool
 * messages that answer them become one user message of `<tool_response>` blocks per run of results.
 */
function withTextCallsAsText(messages: readonly Message[]): Message[] {
  const textCallIds = new Set<string>();
  const result: Message[] = [];
  let pendingResults: ToolMessage[] = [];
  const flushResults = () => {
    if (pendingResults.length > 0) result.push({ role: 'user', parts: toolResponseParts(pendingResults) });
    pendingResults = [];
  };
  for (const message of messages) {
    if (message.role === 'tool' && textCallIds.has(message.toolCallId)) {
      pendingResults.push(message);
      continue;
    }
    // Native results of the same assistant message stay where the API wants them: right after it.
    if (message.role !== 'tool') flushResults();
    if (message.role === 'assistant' && message.toolCalls.some((call) => call.inText === true)) {
      for (const call of message.toolCalls) if (call.inText === true) textCallIds.add(call.id);
      result.push(asText(message));
      continue;
    }
    result.push(message);
  }
  flushResults();
  return result;
}

function asText(message: AssistantMessage): AssistantMessage {
  const textCalls = message.toolCalls.filter((call) => call.inText === true);
  const text = writeToolCallText(textOfParts(message.parts), textCalls);
  return {
    role: 'assistant',
    parts: [{ type: 'text', text }],
    toolCalls: message.toolCalls.filter((call) => call.inText !== true),
  };
}
