/**
 * The one gate for tools with side effects beyond computer (issue 17, finding 1): an MCP tool's risk read
 * from its annotations, the policy that decides for it (the run's `always` wins, else the server's own,
 * else the run's), and the wrapper that asks before the tool runs and records a refusal on the step.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ConfirmationPolicy } from '../../src/shared/config.js';
import type { AgentEvent } from '../../src/shared/events.js';
import type { ConfirmationHandler, ConfirmationRequest } from '../../src/main/agent/agent-contract.js';
import { sideEffectsOf } from '../../src/main/agent/mcp/mcp-tool.js';
import { policyForTool, toolConfirmationReason, withConfirmationGate } from '../../src/main/agent/tool-confirmation.js';
import type { ToolCallScope, ToolDefinition, ToolSideEffects } from '../../src/main/agent/tools/tool-definition.js';
import { ShownImages } from '../../src/main/context/shown-images.js';
import { FIT_EDGE } from '../../src/main/llm/model-profiles.js';

const DESTRUCTIVE: ToolSideEffects = { risk: 'it may delete something' };
const READ_ONLY: ToolSideEffects = { risk: undefined };

describe('an MCP tool’s risk, from its annotations', () => {
  it.each([
    ['no annotations', undefined, /may change something \(its annotations do not say readOnlyHint\)/],
    ['readOnlyHint: false', { readOnlyHint: false }, /may change something/],
    ['destructiveHint: true', { destructiveHint: true }, /may delete or overwrite something \(its annotations say destructiveHint\)/],
    ['read-only but destructive', { readOnlyHint: true, destructiveHint: true }, /may delete or overwrite something/],
    ['not read-only, not destructive', { readOnlyHint: false, destructiveHint: false }, /may change something/],
  ])('is risky with %s', (_label, annotations, reason) => {
    const effects = sideEffectsOf({ name: 'write', ...(annotations === undefined ? {} : { annotations }) }, 'files', undefined);
    expect(effects.risk).toMatch(reason);
    expect(effects.risk).toContain('the tool "write" of the MCP server "files"');
  });

  it('is not risky when it says readOnlyHint: true and nothing destructive', () => {
    expect(sideEffectsOf({ name: 'read', annotations: { readOnlyHint: true } }, 'files', undefined).risk).toBeUndefined();
    expect(sideEffectsOf({ name: 'read', annotations: { readOnlyHint: true, destructiveHint: false } }, 'files', undefined).risk).toBeUndefined();
  });

  it('carries the server’s own policy', () => {
    expect(sideEffectsOf({ name: 'read' }, 'files', 'never').policy).toBe('never');
  });
});

describe('the policy that decides for one tool', () => {
  it.each<[ConfirmationPolicy, ConfirmationPolicy | undefined, ConfirmationPolicy]>([
    ['risky', undefined, 'risky'],
    ['never', undefined, 'never'],
    ['risky', 'never', 'never'],
    ['risky', 'always', 'always'],
    ['never', 'always', 'always'],
    ['never', 'risky', 'risky'],
    ['always', 'never', 'always'],
    ['always', 'risky', 'always'],
    ['always', undefined, 'always'],
  ])('run %s, server %s: %s', (run, server, expected) => {
    expect(policyForTool(run, { risk: undefined, policy: server })).toBe(expected);
  });

  it('asks under risky only for a risky tool, under always for every call, under never for none', () => {
    expect(toolConfirmationReason('risky', 'files__write', DESTRUCTIVE)).toBe('it may delete something');
    expect(toolConfirmationReason('risky', 'files__read', READ_ONLY)).toBeUndefined();
    expect(toolConfirmationReason('always', 'files__read', READ_ONLY)).toBe('the confirmation policy is "always": every call of files__read needs approval');
    expect(toolConfirmationReason('always', 'files__write', DESTRUCTIVE)).toBe('it may delete something');
    expect(toolConfirmationReason('never', 'files__write', DESTRUCTIVE)).toBeUndefined();
    expect(toolConfirmationReason('always', 'files__write', { ...DESTRUCTIVE, policy: 'never' })).toBe('it may delete something');
  });
});

describe('the gate in front of a tool', () => {
  function fakeTool(sideEffects: ToolSideEffects | undefined): ToolDefinition & { calls: unknown[] } {
    const calls: unknown[] = [];
    return {
      calls,
      name: 'files__delete_file',
      description: 'Deletes a file.',
      arguments: z.object({ path: z.string() }),
      ...(sideEffects === undefined ? {} : { sideEffects }),
      execute: async (argumentsValue) => {
        calls.push(argumentsValue);
        return { parts: [{ type: 'text', text: 'deleted' }] };
      },
    };
  }

  function scope(events: AgentEvent[]): ToolCallScope {
    return {
      sessionId: 'ses_1',
      turnId: 'turn_1',
      signal: new AbortController().signal,
      storage: undefined as unknown as ToolCallScope['storage'],
      emit: (event) => events.push(event),
      shown: undefined,
      shownImages: ShownImages.of({ maxImageEdge: 1280, imageSizing: FIT_EDGE, coordinateSpace: 'pixels' }),
    };
  }

  function answering(approved: boolean, requests: ConfirmationRequest[]): ConfirmationHandler {
    return async (request) => {
      requests.push(request);
      return { approved, by: 'policy' };
    };
  }

  it('asks first, and on a refusal does nothing and records the refused call on the step', async () => {
    const tool = fakeTool(DESTRUCTIVE);
    const requests: ConfirmationRequest[] = [];
    const events: AgentEvent[] = [];
    const [gated] = withConfirmationGate([tool], { policy: 'risky', confirm: answering(false, requests) });

    const result = await gated!.execute({ path: '/tmp/x' }, scope(events));

    expect(tool.calls).toEqual([]);
    expect(requests).toMatchObject([{ action: { tool: 'files__delete_file', arguments: { path: '/tmp/x' } }, reason: 'it may delete something' }]);
    expect(result).toMatchObject({
      isError: true,
      record: { action: { tool: 'files__delete_file', arguments: { path: '/tmp/x' } }, result: { ok: false, refused: true } },
    });
    expect(result.parts).toEqual([{ type: 'text', text: 'the user refused this action: it may delete something. Nothing was done; do not try to get around the refusal.' }]);
    expect(events.map((event) => event.type)).toEqual(['confirmation-requested', 'confirmation-answered']);
    expect(events[0]).toMatchObject({ action: { tool: 'files__delete_file' }, reason: 'it may delete something' });
  });

  it('runs the tool once approved', async () => {
    const tool = fakeTool(DESTRUCTIVE);
    const [gated] = withConfirmationGate([tool], { policy: 'risky', confirm: answering(true, []) });
    const result = await gated!.execute({ path: '/tmp/x' }, scope([]));
    expect(tool.calls).toEqual([{ path: '/tmp/x' }]);
    expect(result.isError).toBeUndefined();
  });

  it('lets a read-only tool run unasked under risky, but not under always', async () => {
    const requests: ConfirmationRequest[] = [];
    const reader = fakeTool(READ_ONLY);
    await withConfirmationGate([reader], { policy: 'risky', confirm: answering(false, requests) })[0]!.execute({ path: 'a' }, scope([]));
    expect(requests).toEqual([]);
    expect(reader.calls).toHaveLength(1);

    await withConfirmationGate([reader], { policy: 'always', confirm: answering(false, requests) })[0]!.execute({ path: 'b' }, scope([]));
    expect(requests).toHaveLength(1);
    expect(reader.calls).toHaveLength(1);
  });

  it('leaves a tool without side effects as it is, and never gates one twice', async () => {
    const plain = fakeTool(undefined);
    expect(withConfirmationGate([plain], { policy: 'always', confirm: answering(false, []) })[0]).toBe(plain);

    const requests: ConfirmationRequest[] = [];
    const gate = { policy: 'risky' as const, confirm: answering(true, requests) };
    const twice = withConfirmationGate(withConfirmationGate([fakeTool(DESTRUCTIVE)], gate), gate);
    await twice[0]!.execute({ path: 'c' }, scope([]));
    expect(requests).toHaveLength(1);
  });
});
