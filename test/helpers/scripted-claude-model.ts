/**
 * A scripted Claude for agent tests of the anthropic-computer dialect, until the Anthropic Messages adapter
 * exists: a ModelAdapter (the Claude model profile, the dialect forced to anthropic-computer) that answers
 * each call with the next scripted reply, as the adapter will hand tool_use blocks to the agent — a tool call
 * named as Claude named it with Claude's input JSON. Every request is kept for assertions.
 *
 *   const claude = scriptedClaude('claude-opus-4-5', [claudeComputer({ action: 'left_click', coordinate: [320, 116] }), claudeFinish()]);
 *   startAgentHarness({ extra: { model: claude } });
 */
import type { CompletedAssistantMessage, ModelAdapter, ModelRequest } from '../../src/main/llm/model-adapter.js';
import { resolveModelProfile, type ModelProfileOverrides } from '../../src/main/llm/model-profiles.js';

export interface ScriptedClaudeReply {
  text: string;
  calls: Array<{ name: string; input: unknown }>;
}

export interface ScriptedClaude extends ModelAdapter {
  readonly requests: ModelRequest[];
}

let callCounter = 0;

export function scriptedClaude(model: string, replies: ScriptedClaudeReply[], overrides: ModelProfileOverrides = {}): ScriptedClaude {
  const profile = resolveModelProfile(model, { dialect: 'anthropic-computer', ...overrides });
  const requests: ModelRequest[] = [];
  const queue = [...replies];
  return {
    profile,
    requests,
    complete: async (request) => {
      requests.push(request);
      const reply = queue.shift();
      if (reply === undefined) throw new Error(`The scripted Claude has no reply for request ${requests.length}.`);
      return completed(reply, model);
    },
  };
}

/** A reply calling Claude's computer tool with `input` as Claude writes it (an object, or raw text to pass as is). */
export function claudeComputer(input: unknown, text = 'Acting on the screen.'): ScriptedClaudeReply {
  return { text, calls: [{ name: 'computer', input }] };
}

export function claudeFinish(summary = 'Done.', success = true): ScriptedClaudeReply {
  return { text: 'The task is done.', calls: [{ name: 'finish', input: { summary, success } }] };
}

function completed(reply: ScriptedClaudeReply, model: string): CompletedAssistantMessage {
  return {
    role: 'assistant',
    parts: reply.text === '' ? [] : [{ type: 'text', text: reply.text }],
    toolCalls: reply.calls.map((call) => {
      callCounter += 1;
      return { id: `toolu_${String(callCounter).padStart(6, '0')}`, name: call.name, argumentsText: typeof call.input === 'string' ? call.input : JSON.stringify(call.input) };
    }),
    usage: { inputTokens: 1000, outputTokens: 20 },
    finishReason: reply.calls.length > 0 ? 'tool-calls' : 'stop',
    model,
  };
}
