/**
 * Older clients' inline note and quote blocks through the real agent: cut out of the request before it is
 * stored, so neither the database nor the model's requests (built from the database) hold them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { chatMessages, contentText, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { withRawDatabase } from '../helpers/raw-database.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  delete process.env['DEBUG_EPHEMERAL_INJECTION'];
  await harness?.close();
  harness = undefined;
});

const REQUEST =
  'Pay the invoice\n—————当前笔记————\nOLD-NOTE-5521 remember the PIN\n—————当前笔记如上————\n' +
  '—————当前引用体————\nOLD-QUOTE-9043 quoted mail\n—————当前引用体如上————';

function tableText(harness: AgentHarness, table: string): string {
  return JSON.stringify(withRawDatabase(harness.storage.paths.databaseFile, (database) => database.prepare(`SELECT * FROM ${table}`).all()));
}

describe("older clients' inline injections", () => {
  it('are stripped from the user message before it is stored, and so never reach a request', async () => {
    harness = await startAgentHarness();
    harness.server.script([finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText(REQUEST) });
    expect(outcome.status).toBe('finished');
    for (const table of ['messages', 'turns', 'sessions']) {
      expect(tableText(harness, table)).not.toContain('OLD-NOTE-5521');
      expect(tableText(harness, table)).not.toContain('OLD-QUOTE-9043');
      expect(tableText(harness, table)).not.toContain('当前');
    }
    const stored = harness.storage.messages.listByTurn(outcome.turnId)[0]!.message;
    expect(stored).toEqual({ role: 'user', parts: [{ type: 'text', text: 'Pay the invoice' }] });
    const sent = chatMessages(harness.server, 0).map(contentText).join('\n');
    expect(sent).toContain('Pay the invoice');
    expect(sent).not.toContain('OLD-NOTE-5521');
    expect(sent).not.toContain('OLD-QUOTE-9043');
  });

  it('logs the original, cleaned and stripped lengths with DEBUG_EPHEMERAL_INJECTION=true', async () => {
    process.env['DEBUG_EPHEMERAL_INJECTION'] = 'true';
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    harness = await startAgentHarness();
    harness.server.script([finishCall()]);
    await harness.agent.runTurn({ request: userText(REQUEST) });
    const lines = written.filter((line) => line.startsWith('inline injection cleaning:'));
    expect(lines).toHaveLength(1);
    const cleaned = 'Pay the invoice'.length;
    expect(lines[0]).toContain(`original ${REQUEST.length}, cleaned ${cleaned}, stripped ${REQUEST.length - cleaned} characters`);
    expect(lines[0]).not.toContain('OLD-NOTE');
  });
});
