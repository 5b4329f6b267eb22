/**
 * Cost everywhere, and a ceiling (issue 15), through `sightline run` against the fake model server with
 * replies of known usage: the turn's cost printed at its end (dollars under gpt-4.1's list price, tokens for a
 * model of unknown price), each step's cost stored and shown by `sessions show`, and `--max-cost` ending a
 * turn as failed before the call that would go over it, with the session left to continue.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import type { FakeReply, FakeUsage, RecordedRequest } from '../helpers/fake-openai-server.js';
import { scriptedMoves, type ScriptedMove } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';
import { useRunEnvironment } from '../helpers/run-environment.js';

const environment = useRunEnvironment('sightline-cli-run-cost');

/** Every call: 10,000 tokens in, 8,000 of them read from the cache, 100 out. */
const USAGE: FakeUsage = { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 100 };
/** Under gpt-4.1's list price ($2 in, $0.50 cached, $8 out per million): 2,000 × 2 + 8,000 × 0.5 + 100 × 8. */
const CALL_DOLLARS = (2_000 * 2 + 8_000 * 0.5 + 100 * 8) / 1_000_000;

const fillName: ScriptedMove[] = [
  { action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } },
  { action: { action: 'type', text: 'Platform' } },
  { finish: 'Named the team Platform.' },
];

function script(moves: ScriptedMove[]): void {
  const replies = scriptedMoves(moves).map((reply) => (request: RecordedRequest): FakeReply => {
    const answer = reply(request);
    return answer.type === 'answer' ? { ...answer, usage: USAGE } : answer;
  });
  environment.model.script(replies);
}

async function run(task: string, ...extra: string[]): Promise<{ exitCode: number; stdout: string; stderr: string; events: AgentEvent[] }> {
  const argv = ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url];
  const io = captureIo();
  const exitCode = await runCli([...argv, '--base-url', environment.model.baseUrl, '--json', ...extra], io);
  const events = io.output.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => AgentEventSchema.parse(JSON.parse(line)));
  return { exitCode, ...io.output, events };
}

async function sessions(...argv: string[]): Promise<string> {
  const io = captureIo();
  await runCli(['--home', environment.home.root, 'sessions', ...argv], io);
  return io.output.stdout;
}

describe('the cost of a turn', () => {
  it('prints the turn’s cost in dollars at its end, and stores each call’s cost on its step for sessions show', async () => {
    script(fillName);
    const result = await run('Name the team Platform');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`30,000 input + 300 output tokens, cost $${(3 * CALL_DOLLARS).toFixed(4)}: Named the team Platform.`);
    const ended = result.events.at(-1) as Extract<AgentEvent, { type: 'turn-ended' }>;
    expect(ended.cost).toEqual({ dollars: expect.closeTo(3 * CALL_DOLLARS, 10), unpricedTokens: 0 });
    const steps = result.events.filter((event) => event.type === 'step');
    expect(steps.map((step) => step.costDollars)).toEqual([1, 2, 3].map(() => expect.closeTo(CALL_DOLLARS, 10)));

    const shown = await sessions('show', ended.sessionId);
    expect(shown.split('\n').filter((line) => line.startsWith('  cost: '))).toEqual(['  cost: $0.0264', '  cost: $0.0264']);
    expect(shown.split('\n').filter((line) => line.startsWith('     cost: '))).toEqual(['     cost: $0.0088', '     cost: $0.0088', '     cost: $0.0088']);
    const json = JSON.parse(await sessions('show', ended.sessionId, '--json')) as {
      session: { cost: { dollars: number; unpricedTokens: number } };
      turns: { cost: { dollars: number }; steps: { costDollars: number | null }[] }[];
    };
    expect(json.session.cost).toEqual({ dollars: expect.closeTo(3 * CALL_DOLLARS, 10), unpricedTokens: 0 });
    expect(json.turns[0]?.cost.dollars).toBeCloseTo(3 * CALL_DOLLARS, 10);
    expect(json.turns[0]?.steps.map((step) => step.costDollars)).toEqual([1, 2, 3].map(() => expect.closeTo(CALL_DOLLARS, 10)));
  });

  it('gives the cost in tokens for a model whose price is unknown', async () => {
    script(fillName);
    const result = await run('Name the team Platform', '--model', 'my-local-vision-model');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('finished after 3 steps, 30,000 input + 300 output tokens, cost unknown (no price known for the model): Named the team Platform.');
    // Each step's line says so too (issue 34, part 5): unknown, never $0 and never left out.
    expect(result.stderr.split('\n').filter((line) => /^step \d+ .*10,100 tokens {2}cost unknown$/.test(line))).toHaveLength(3);
    const ended = result.events.at(-1) as Extract<AgentEvent, { type: 'turn-ended' }>;
    expect(ended.cost).toEqual({ dollars: null, unpricedTokens: 30_300 });
    expect(result.events.filter((event) => event.type === 'step').every((step) => step.costDollars === undefined)).toBe(true);
    const shown = await sessions('show', ended.sessionId);
    expect(shown).toContain('  cost: unknown (30,300 tokens at no known price)');
    expect(shown.split('\n').filter((line) => line === '     cost: unknown (no price known)')).toHaveLength(3);
    expect(shown).not.toContain('$0.00');
  });
});

describe('the cost of a Claude turn', () => {
  it('prices cache writes at 1.25× and reads at 0.1× of Claude Sonnet 4.5’s input price', async () => {
    const anthropic = await startFakeAnthropicServer();
    try {
      anthropic.script([
        {
          type: 'answer',
          toolUses: [{ id: 'toolu_01', name: 'computer', inputText: JSON.stringify({ action: 'click', ...SANDBOX_LAYOUT.teamNameField }) }],
          usage: { inputTokens: 200, cacheCreationInputTokens: 4_000, outputTokens: 50 },
        },
        {
          type: 'answer',
          toolUses: [{ id: 'toolu_02', name: 'finish', inputText: JSON.stringify({ summary: 'Clicked the field.', success: true }) }],
          usage: { inputTokens: 100, cacheReadInputTokens: 4_000, cacheCreationInputTokens: 300, outputTokens: 40 },
        },
      ]);
      const argv = ['--home', environment.home.root, 'run', 'Click the team name', '--operator', 'browser', '--url', environment.sandbox.url];
      const io = captureIo({ ANTHROPIC_API_KEY: 'sk-ant-test-key' });
      const exitCode = await runCli([...argv, '--model', 'claude-sonnet-4-5', '--dialect', 'function-tools', '--base-url', anthropic.baseUrl], io);
      expect(exitCode, io.output.stderr).toBe(0);
      // $3 input, $0.30 read, $3.75 written, $15 output per million: 200 + 4,000 written + 50 out, then 100 + 4,000 read + 300 written + 40 out.
      const dollars = (200 * 3 + 4_000 * 3.75 + 50 * 15 + 100 * 3 + 4_000 * 0.3 + 300 * 3.75 + 40 * 15) / 1_000_000;
      expect(dollars).toBeCloseTo(0.019575, 12);
      expect(io.output.stderr).toContain('8,600 input + 90 output tokens, cost $0.0196: Clicked the field.');
    } finally {
      await anthropic.close();
    }
  });
});

describe('the cost ceiling', () => {
  it('ends the turn as failed before the call that would go over --max-cost, saying so, and the session goes on', async () => {
    script(fillName);
    // The first call ($0.0088) fits under $0.01; a second like it would not.
    const stopped = await run('Name the team Platform', '--max-cost', '$0.01');
    expect(stopped.exitCode).toBe(1);
    expect(environment.model.requests).toHaveLength(1);
    const message =
      'Stopped before the next model call: the turn has spent $0.0088, and the next call would cost about $0.0088, ' +
      "over the turn's ceiling of $0.01 (agent.maxCost).";
    expect(stopped.stderr).toContain(`stopped at the cost ceiling after 1 step, 10,000 input + 100 output tokens, cost $0.0088: ${message}`);
    const ended = stopped.events.at(-1) as Extract<AgentEvent, { type: 'turn-ended' }>;
    expect(ended).toMatchObject({ status: 'failed', reason: 'cost-limit', summary: message });

    // Nothing is lost: the step is recorded, and the session takes its next turn.
    const storage = openHomeStorage(environment.home);
    expect(storage.steps.listByTurn(ended.turnId).map((step) => step.costDollars)).toEqual([expect.closeTo(CALL_DOLLARS, 10)]);
    expect(storage.turns.get(ended.turnId)?.status).toBe('failed');
    expect(storage.sessions.get(ended.sessionId)?.status).toBe('idle');
    storage.close();
    script([{ finish: 'The field is clicked.' }]);
    const resumed = await run('Carry on', '--session', ended.sessionId);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
  });

  it('holds a model of unknown price to a ceiling in tokens, and refuses one in dollars it cannot price', async () => {
    script(fillName);
    const inTokens = await run('Name the team Platform', '--model', 'my-local-vision-model', '--max-cost', '15000 tokens');
    expect(inTokens.exitCode).toBe(1);
    expect(inTokens.stderr).toContain(
      'Stopped before the next model call: the turn has spent 10,100 tokens, and the next call would cost about 10,100 tokens, ' +
        "over the turn's ceiling of 15,000 tokens (agent.maxCost).",
    );

    environment.model.requests.length = 0;
    const inDollars = await run('Name the team Platform', '--model', 'my-local-vision-model', '--max-cost', '0.5');
    // Refused before the runtime opens (issue 34, part 5), as a usage error.
    expect(inDollars.exitCode).toBe(2);
    expect(environment.model.requests).toHaveLength(0);
    expect(inDollars.stderr).toContain('--max-cost: a ceiling of $0.50 cannot be held for my-local-vision-model, whose price is unknown');
  });

  it('refuses a ceiling it cannot read, naming the flag and the forms it takes', async () => {
    const result = await run('Name the team Platform', '--max-cost', 'a lot');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--max-cost');
    expect(result.stderr).toContain('dollars (0.5 or "$0.50") or tokens ("200000 tokens")');
  });
});
