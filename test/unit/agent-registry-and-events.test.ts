/** The tool registry's rules and the event emitter's redaction, without a loop around them. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../../src/shared/events.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { redactorOf, REDACTED } from '../../src/shared/secret-redaction.js';
import { createFinishTool } from '../../src/main/agent/tools/finish-tool.js';
import { ToolRegistry, ToolRegistryError, createToolRegistry } from '../../src/main/agent/tools/registry.js';
import type { ToolDefinition } from '../../src/main/agent/tools/tool-definition.js';

function tool(name: string): ToolDefinition {
  return { name, description: `The ${name} tool.`, arguments: z.object({ query: z.string() }), execute: async () => ({ parts: [] }) };
}

describe('the tool registry', () => {
  it('merges extra tools after the built-in ones and shows each with an object schema', () => {
    const registry = createToolRegistry([createFinishTool()], [tool('web_search')]);
    expect(registry.names()).toEqual(['finish', 'web_search']);
    expect(registry.forModel()).toEqual([
      expect.objectContaining({ name: 'finish', parameters: expect.objectContaining({ type: 'object', required: ['summary', 'success'] }) }),
      {
        name: 'web_search',
        description: 'The web_search tool.',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
    ]);
  });

  it('refuses two tools with one name when it is built', () => {
    expect(() => createToolRegistry([createFinishTool()], [tool('finish')])).toThrow(ToolRegistryError);
    expect(() => createToolRegistry([createFinishTool()], [tool('finish')])).toThrow('Two tools are named "finish"');
  });

  it('refuses names the model APIs would reject', () => {
    expect(() => new ToolRegistry([tool('web search')])).toThrow(/not usable/);
  });
});

describe('event redaction', () => {
  it('takes every configured secret out of every string of an event', () => {
    const seen: AgentEvent[] = [];
    const emit = createEventEmitter((event) => seen.push(event), redactorOf(['sk-secret-123456', undefined, 'tvly-abcdef']));
    emit({ type: 'warning', sessionId: 's', at: 1, message: 'key sk-secret-123456 and tvly-abcdef failed' });
    expect(seen).toEqual([{ type: 'warning', sessionId: 's', at: 1, message: `key ${REDACTED} and ${REDACTED} failed` }]);
  });

  it('keeps a failing listener from breaking the caller', () => {
    const emit = createEventEmitter(() => {
      throw new Error('listener bug');
    }, (text) => text);
    const original = console.error;
    console.error = () => {};
    try {
      expect(() => emit({ type: 'warning', sessionId: 's', at: 1, message: 'm' })).not.toThrow();
    } finally {
      console.error = original;
    }
  });
});
