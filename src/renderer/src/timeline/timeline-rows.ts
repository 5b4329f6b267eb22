/**
 * The open session as a flat list of rows for the windowed list: each turn's header, its answer (a flow's
 * assert, if, wait_for or extract), its search reports,
 * its steps in order, the images and audio its model generated, and the model's streaming text under a
 * running turn. Every kind of row has a fixed
 * height (the CSS gives each the same), so the list knows where any row is without measuring it.
 */
import type { Injection, SearchReport, Step, Turn, TurnAnswerView } from '../../../shared/app-api.js';
import type { GeneratedMedia } from '../../../shared/generated-media.js';
import type { TimelineState } from './timeline-state.js';
import { turnStepOffsets } from './timeline-state.js';

export type TimelineRow =
  | { kind: 'turn'; key: string; turn: Turn; injections: Injection[] }
  | { kind: 'answer'; key: string; turn: Turn; answer: TurnAnswerView }
  | { kind: 'report'; key: string; report: SearchReport }
  | { kind: 'step'; key: string; index: number; turn: Turn; step: Step | undefined }
  | { kind: 'media'; key: string; media: GeneratedMedia }
  | { kind: 'thinking'; key: string; turnId: string; text: string };

/** Heights in CSS pixels, margins included; timeline.css sizes each row kind to match. */
export const ROW_HEIGHTS: Record<TimelineRow['kind'], number> = {
  turn: 96,
  answer: 124,
  report: 148,
  step: 128,
  media: 248,
  thinking: 72,
};

/** An answer with an extracted value is taller than one with a verdict: it shows the JSON's first lines. */
export const VALUE_ANSWER_HEIGHT = 200;

export function timelineRows(
  state: Pick<TimelineState, 'turns' | 'steps' | 'reports' | 'injections' | 'liveText'> & Partial<Pick<TimelineState, 'media'>>,
): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const offsets = turnStepOffsets(state.turns);
  const reportsByTurn = groupByTurn(state.reports);
  const injectionsByTurn = groupByTurn(state.injections);
  const mediaByTurn = groupByTurn(state.media ?? []);
  for (const turn of state.turns) {
    rows.push({ kind: 'turn', key: `turn:${turn.id}`, turn, injections: injectionsByTurn.get(turn.id) ?? [] });
    // Under its turn's header, before the steps that led to it: what a flow's step found is read first.
    if (turn.answer !== null) rows.push({ kind: 'answer', key: `answer:${turn.id}`, turn, answer: turn.answer });
    for (const report of reportsByTurn.get(turn.id) ?? []) rows.push({ kind: 'report', key: `report:${report.id}`, report });
    const first = offsets.get(turn.id) ?? 0;
    for (let position = 0; position < turn.stepCount; position += 1) {
      const index = first + position;
      const step = state.steps[index];
      rows.push({ kind: 'step', key: step === undefined ? `step-index:${index}` : `step:${step.id}`, index, turn, step });
    }
    // What the model generated follows the turn's steps: a reply's media is not tied to one step.
    for (const media of mediaByTurn.get(turn.id) ?? []) rows.push({ kind: 'media', key: `media:${turn.id}:${media.mediaId}`, media });
    if (state.liveText !== null && state.liveText.turnId === turn.id && turn.status === 'running') {
      rows.push({ kind: 'thinking', key: `thinking:${turn.id}`, turnId: turn.id, text: state.liveText.text });
    }
  }
  // Reports of older data that no turn claims still show, after the turns.
  for (const report of reportsByTurn.get(null) ?? []) rows.push({ kind: 'report', key: `report:${report.id}`, report });
  return rows;
}

export function rowHeights(rows: readonly TimelineRow[]): number[] {
  return rows.map((row) => (row.kind === 'answer' && row.answer.kind === 'value' ? VALUE_ANSWER_HEIGHT : ROW_HEIGHTS[row.kind]));
}

function groupByTurn<Item extends { turnId: string | null }>(items: readonly Item[]): Map<string | null, Item[]> {
  const groups = new Map<string | null, Item[]>();
  for (const item of items) {
    const group = groups.get(item.turnId) ?? [];
    group.push(item);
    groups.set(item.turnId, group);
  }
  return groups;
}
