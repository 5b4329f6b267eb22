/**
 * Hostile model replies through the real agent loop, turn by turn: the loop every reliability fuzz test
 * (test/integration/reliability-fuzz*.test.ts) shares, whatever dialect its replies are in.
 *
 * The fake model server is scripted with replies made on demand, each when its request arrives, from the
 * hostile source: random replies for the first `randomTurns` turns, then `endlessTurns` turns of replies
 * that never end the task. A new session starts every `turnsPerSession` turns, and for every endless turn.
 * Every turn is checked: runTurn never throws, the status is finished, failed or stopped, the reason is a
 * known one, the model calls and the actions run stay within the step limit, an endless turn ends at the
 * step limit, and the stored turn row agrees with the outcome. A test adds its own checks with `check`.
 *
 *   const run = await runHostileTurns(harness, { source: new HostileReplies(SEED, { screen }), maxSteps: 6,
 *     randomTurns: 24, endlessTurns: 4, turnsPerSession: 3 });
 *   expect(run.failures, `seed ${SEED}`).toEqual([]);
 *
 * For volume the same tests also dispatch fuzzed calls straight through a tool registry: startDispatchTurn
 * opens the turn they run in. offScreenPoints lists any action that landed off the screen, in either way.
 */
import type { TurnOutcome } from '../../src/main/agent/agent-contract.js';
import type { Emit } from '../../src/main/agent/event-emitter.js';
import type { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import type { ToolCallScope } from '../../src/main/agent/tools/tool-definition.js';
import { ShownImages } from '../../src/main/context/index.js';
import { FIT_EDGE } from '../../src/main/llm/model-profiles.js';
import type { Storage } from '../../src/main/storage/index.js';
import { userText } from '../../src/shared/messages.js';
import { TURN_END_REASONS } from '../../src/shared/statuses.js';
import type { AgentHarness } from './agent-harness.js';
import type { FakeReply } from './fake-openai-server.js';
import type { FakeOperator } from './fake-operator.js';

/** Where the hostile replies come from: the fuzz sources of hostile-model-replies.ts, or an adapter to one. */
export interface HostileReplySource {
  /** A random reply, valid or not. */
  reply(): FakeReply;
  /** A reply that keeps the turn going, so the turn can only end at the step limit. */
  endlessReply(): FakeReply;
}

/** One finished turn, as a test's own check sees it. */
export interface HostileTurn {
  index: number;
  endless: boolean;
  /** Requests the model server received during the turn. */
  modelCalls: number;
  /** Actions the operator ran during the turn. */
  actions: number;
}

export interface HostileTurnsOptions {
  source: HostileReplySource;
  /** The harness's agent.maxSteps. */
  maxSteps: number;
  randomTurns: number;
  endlessTurns: number;
  turnsPerSession: number;
  /** The most actions one turn may run: maxSteps unless one reply may batch several actions. */
  maxActionsPerTurn?: number;
  /** A test's own checks of a turn that ended: each string returned is a failure. */
  check?: (outcome: TurnOutcome, turn: HostileTurn) => string[];
}

export interface HostileTurnsResult {
  /** Every broken invariant, one line each; empty when all held. */
  failures: string[];
  /** Turns that ended (did not throw). */
  turns: number;
  /** Model calls and actions over those turns. */
  modelCalls: number;
  actions: number;
}

export async function runHostileTurns(harness: AgentHarness, options: HostileTurnsOptions): Promise<HostileTurnsResult> {
  const { source, maxSteps, randomTurns, endlessTurns, turnsPerSession } = options;
  const maxActions = options.maxActionsPerTurn ?? maxSteps;
  const result: HostileTurnsResult = { failures: [], turns: 0, modelCalls: 0, actions: 0 };
  const failures = result.failures;
  let sessionId: string | undefined;
  // Read when a reply is made, not when it is scripted: replies left over from a turn follow the current mode.
  let mode: 'random' | 'endless' = 'random';
  for (let index = 0; index < randomTurns + endlessTurns; index += 1) {
    const endless = index >= randomTurns;
    if (index % turnsPerSession === 0 || endless) sessionId = undefined;
    mode = endless ? 'endless' : 'random';
    // Each reply is made when its request arrives (in the current mode); a turn takes at most maxSteps.
    const missing = maxSteps + 1 - harness.server.remainingReplies();
    harness.server.script(Array.from({ length: missing }, () => () => (mode === 'endless' ? source.endlessReply() : source.reply())));
    const requestsBefore = harness.server.requests.length;
    const actionsBefore = harness.operator.executed.length;
    let outcome: TurnOutcome;
    try {
      outcome = await harness.agent.runTurn({ request: userText(`fuzz turn ${index}`), ...(sessionId ? { sessionId } : {}) });
    } catch (error) {
      failures.push(`turn ${index} threw: ${error instanceof Error ? error.stack : String(error)}`);
      continue;
    }
    sessionId = outcome.sessionId;
    const turn: HostileTurn = {
      index,
      endless,
      modelCalls: harness.server.requests.length - requestsBefore,
      actions: harness.operator.executed.length - actionsBefore,
    };
    result.turns += 1;
    result.modelCalls += turn.modelCalls;
    result.actions += turn.actions;
    if (!['finished', 'failed', 'stopped'].includes(outcome.status)) failures.push(`turn ${index}: status ${outcome.status}`);
    if (!(TURN_END_REASONS as readonly string[]).includes(outcome.reason)) failures.push(`turn ${index}: reason ${outcome.reason}`);
    if (turn.modelCalls > maxSteps) failures.push(`turn ${index}: ${turn.modelCalls} model calls, limit ${maxSteps}`);
    if (turn.actions > maxActions) failures.push(`turn ${index}: ${turn.actions} actions run, limit ${maxActions}`);
    if (endless && outcome.reason !== 'step-limit') failures.push(`endless turn ${index} ended ${outcome.reason}, not at the step limit`);
    if (harness.storage.turns.get(outcome.turnId)?.status !== outcome.status) failures.push(`turn ${index}: row disagrees`);
    if (options.check !== undefined) failures.push(...options.check(outcome, turn));
  }
  return result;
}

/** Every point an action of the operator's landed on outside the screen, described; empty when none did. */
export function offScreenPoints(operator: FakeOperator, screen: { width: number; height: number }): string[] {
  return operator.executed.flatMap((entry) =>
    entry.screen
      .filter((point) => !(point.x >= 0 && point.y >= 0 && point.x < screen.width && point.y < screen.height))
      .map((point) => `${entry.action.action} at (${point.x}, ${point.y})`),
  );
}

/**
 * A session and a running turn to dispatch fuzzed tool calls in, straight through a registry without the
 * loop: the screen is captured once, and the scope says the model was shown it at its own size, in pixels.
 */
export async function startDispatchTurn(
  storage: Storage,
  screen: ScreenRecorder,
  emit: Emit,
  options: { operator: Parameters<Storage['sessions']['create']>[0]['operator']; model: string; size: { width: number; height: number } },
): Promise<ToolCallScope> {
  const session = storage.sessions.create({ title: 'fuzz', operator: options.operator, model: options.model });
  const turn = storage.turns.start({ sessionId: session.id, userRequest: 'fuzz' });
  screen.beginTurn({ sessionId: session.id, turnId: turn.id });
  const first = await screen.capture(false);
  const { width, height } = options.size;
  const view = { frameWidth: width, frameHeight: height, imageWidth: width, imageHeight: height, coordinateSpace: 'pixels' as const };
  const shown = first.kind === 'new' ? { imageId: first.imageId, view } : undefined;
  const shownImages = ShownImages.of({ maxImageEdge: Math.max(width, height), imageSizing: FIT_EDGE, coordinateSpace: 'pixels' }, shown === undefined ? [] : [shown]);
  return { sessionId: session.id, turnId: turn.id, signal: new AbortController().signal, storage, emit, shown, shownImages };
}
