/**
 * An adapter refuses a provider's own tool that its API cannot carry, before any network call: an
 * Anthropic computer tool sent through Chat Completions or the Responses API (or OpenAI's through Chat
 * Completions) would reach the model as a function it was never trained on.
 */
import { describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { chatCompletionsBody } from '../../src/main/llm/chat-completions-adapter.js';
import type { ModelRequest, NativeToolDeclaration } from '../../src/main/llm/model-adapter.js';
import { ModelCapabilityError } from '../../src/main/llm/model-errors.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { responsesBody } from '../../src/main/llm/responses-adapter.js';

const CLAUDE_COMPUTER: NativeToolDeclaration = { kind: 'anthropic-computer', toolType: 'computer_20250124', displayWidth: 1280, displayHeight: 800 };
const OPENAI_COMPUTER: NativeToolDeclaration = {
  kind: 'openai-computer',
  toolType: 'computer_use_preview',
  displayWidth: 1280,
  displayHeight: 800,
  environment: 'browser',
};

function requestWith(native: NativeToolDeclaration): ModelRequest {
  return { messages: [userText('Click the button.')], tools: [{ name: 'computer', description: 'The screen.', parameters: { type: 'object' }, native }] };
}

describe('native tools an API cannot carry', () => {
  it('the Responses API refuses an Anthropic computer tool, naming it', () => {
    expect(() => responsesBody(requestWith(CLAUDE_COMPUTER), resolveModelProfile('computer-use-preview'))).toThrow(ModelCapabilityError);
    expect(() => responsesBody(requestWith(CLAUDE_COMPUTER), resolveModelProfile('computer-use-preview'))).toThrow(
      'The tool "computer" is a native anthropic-computer tool, which the Responses API cannot carry',
    );
  });

  it('Chat Completions refuses both computer tools, and still sends function tools', () => {
    const settings = { profile: resolveModelProfile('gpt-4.1'), baseUrl: 'https://api.openai.com/v1' };
    for (const native of [CLAUDE_COMPUTER, OPENAI_COMPUTER]) {
      expect(() => chatCompletionsBody(requestWith(native), settings)).toThrow(
        `is a native ${native.kind} tool, which Chat Completions cannot carry`,
      );
    }
    const plain: ModelRequest = { messages: [userText('Hi')], tools: [{ name: 'finish', description: 'Done.', parameters: { type: 'object' } }] };
    expect(chatCompletionsBody(plain, settings).tools).toEqual([
      { type: 'function', function: { name: 'finish', description: 'Done.', parameters: { type: 'object' } } },
    ]);
  });
});
