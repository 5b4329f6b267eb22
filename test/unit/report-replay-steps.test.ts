/**
 * A report reads what replay recorded on a turn (turns.replay, shared/replay.ts): a replayed turn's steps say
 * replayed, a healed one's say healed, and its first divergence — the recorded frame beside the present one, the
 * differing region — goes on the step of the action it was found at, so the report shows the two frames side by side.
 */
import { describe, expect, it } from 'vitest';
import { withReplay } from '../../src/main/report/report-session.js';
import type { TurnReplay } from '../../src/shared/replay.js';
import type { ReportAgentStep } from '../../src/shared/report-model.js';

function step(id: string): ReportAgentStep {
  return {
    id, sequence: 1, label: 'click', tool: 'computer', action: { action: 'click', x: 10, y: 10 }, thought: null, error: null, outcome: 'ok',
    shot: null, view: null, settle: null, latencyMs: null, costDollars: null, inputTokens: null, outputTokens: null, source: 'model', divergence: null,
  };
}

const base = { replayedActions: 1, modelCalls: 2, costDollars: null, baselineModelCalls: 3, baselineCostDollars: null } as const;

describe("a report's steps of a replayed turn", () => {
  it('say replayed, and carry no divergence', () => {
    const replay = { ...base, mode: 'replayed', modelCalls: 0 } as unknown as TurnReplay;
    const steps = withReplay([step('a'), step('b')], replay);
    expect(steps.map((each) => [each.source, each.divergence])).toEqual([['replayed', null], ['replayed', null]]);
  });

  it('say healed, with the divergence on the action it was found at', () => {
    const replay = {
      ...base,
      mode: 'healed',
      divergence: { phase: 'before', action: 2, actionText: 'click at 10,10', reason: 'the row changed', region: { x: 1, y: 2, width: 3, height: 4 }, recordedImageId: 'img_000000000001', presentImageId: 'img_000000000002' },
    } as unknown as TurnReplay;
    const steps = withReplay([step('a'), step('b'), step('c')], replay);
    expect(steps.map((each) => each.source)).toEqual(['healed', 'healed', 'healed']);
    expect(steps[1]!.divergence).toEqual({ recordedImageId: 'img_000000000001', liveImageId: 'img_000000000002', regions: [{ x: 1, y: 2, width: 3, height: 4 }], when: 'before' });
    expect([steps[0]!.divergence, steps[2]!.divergence]).toEqual([null, null]);
  });

  it('are the model’s when the turn was not replayed', () => {
    expect(withReplay([step('a')], null)[0]!.source).toBe('model');
  });
});
