/**
 * Sessions for the report's tests and bench: flows that passed and failed (with their answers, evidence and
 * values, as the flow runner stores them), a replay healed after a divergence (seeded: replay is issue 26's),
 * and a hostile session whose texts are markup. Each flow comes with the FlowRunResult the runner would return.
 */
import type { StepAction } from '../../src/shared/actions.js';
import type { TurnAnswer, StepKind } from '../../src/shared/answers.js';
import type { Divergence } from '../../src/shared/report-model.js';
import type { FlowResult, FlowRunResult, StepResult } from '../../src/main/flows/flow-result.js';
import type { ImageRecord, SessionRecord, Storage } from '../../src/main/storage/index.js';
import { drawScreen } from './seed-timeline.js';

const WIDTH = 1280;
const HEIGHT = 800;

export interface SeededStep {
  action: StepAction;
  thought: string;
  page: string;
  typed?: string;
  toast?: string;
  dialog?: string;
  error?: string;
  result?: Record<string, unknown>;
  /** Reuse the frame of an earlier step (the screen did not change). */
  sameAsPrevious?: boolean;
  /**
   * Folded out of the model's context by the time the flow ended, with this caption, as compaction leaves a
   * long flow's earlier frames: the model read the caption, the report still shows the pixels.
   */
  foldedAs?: string;
}

export interface SeededFlowStep {
  kind: StepKind;
  label: string;
  text: string;
  status: StepResult['status'];
  answer?: TurnAnswer | 'evidence-last';
  steps: SeededStep[];
  value?: unknown;
  as?: string;
  reason?: string;
}

export interface SeededFlow {
  session: SessionRecord;
  result: FlowResult;
  /** Every image the session stored, in order. */
  images: ImageRecord[];
}

/** A flow's session, turn by turn, and its FlowResult, as `sightline flow` would leave them. */
export async function seedFlow(storage: Storage, name: string, flowSteps: SeededFlowStep[], options: { title?: string } = {}): Promise<SeededFlow> {
  const session = storage.sessions.create({ title: options.title ?? name, operator: 'browser', model: 'gpt-4.1', flowName: name });
  const images: ImageRecord[] = [];
  const results: StepResult[] = [];
  let line = 3;
  for (const [index, flowStep] of flowSteps.entries()) {
    const turn = storage.turns.start({ sessionId: session.id, userRequest: flowStep.text, stepKind: flowStep.kind });
    for (const step of flowStep.steps) {
      const previous = images.at(-1);
      const image =
        step.sameAsPrevious === true && previous !== undefined
          ? previous
          : await storage.images.put({
              sessionId: session.id,
              turnId: turn.id,
              bytes: await drawScreen({ width: WIDTH, height: HEIGHT, page: step.page, ...(step.typed === undefined ? {} : { typed: step.typed }), ...(step.toast === undefined ? {} : { toast: step.toast }), ...(step.dialog === undefined ? {} : { dialog: step.dialog }) }),
              mime: 'image/png',
              width: WIDTH,
              height: HEIGHT,
              source: 'browser',
            });
      if (image !== previous) images.push(image);
      if (step.foldedAs !== undefined && image !== previous) {
        storage.images.setCaption(image.id, step.foldedAs);
        storage.images.setZone(image.id, 'compact');
      }
      storage.steps.append({
        sessionId: session.id,
        turnId: turn.id,
        action: step.action,
        thought: step.thought,
        screenshotImageId: image.id,
        screenshotView: { imageWidth: WIDTH, imageHeight: HEIGHT, coordinateSpace: 'pixels' },
        result: step.result ?? { ok: step.error === undefined, settle: { settled: true, waitedMs: 420, frames: 3, maxMs: 3000 } },
        error: step.error ?? null,
        latencyMs: 1400,
        inputTokens: 4200,
        outputTokens: 120,
        costDollars: 0.0125,
      });
    }
    const last = images.at(-1);
    const answer: TurnAnswer | undefined =
      flowStep.answer === 'evidence-last'
        ? { kind: flowStep.kind === 'extract' ? 'value' : 'verdict', value: flowStep.value ?? (flowStep.status === 'passed'), reason: flowStep.reason ?? '', evidence: last === undefined ? [] : [last.id] }
        : flowStep.answer;
    storage.turns.end(turn.id, flowStep.status === 'passed' ? 'finished' : 'failed', answer);
    results.push({
      path: String(index + 1),
      label: flowStep.label,
      kind: flowStep.kind,
      text: flowStep.text,
      at: { file: `${name}.yaml`, line, column: 5 },
      status: flowStep.status,
      reason: answer?.reason ?? flowStep.reason,
      evidence: answer?.evidence ?? [],
      ...(answer !== undefined && flowStep.kind !== 'do' ? { value: answer.value } : {}),
      ...(flowStep.as === undefined ? {} : { as: flowStep.as }),
      durationMs: 2100 + index * 300,
      costDollars: 0.0125 * flowStep.steps.length,
      turnId: turn.id,
    });
    line += 2;
  }
  const failed = results.some((step) => step.status === 'failed');
  return {
    session,
    images,
    result: {
      name,
      file: `flows/${name}.yaml`,
      status: failed ? 'failed' : 'passed',
      sessionId: session.id,
      attempts: 1,
      earlierSessions: [],
      startedAt: session.createdAt,
      durationMs: results.reduce((sum, step) => sum + step.durationMs, 0),
      costDollars: results.reduce((sum, step) => sum + (step.costDollars ?? 0), 0),
      error: failed ? `step ${results.find((step) => step.status === 'failed')?.path} failed: ${results.find((step) => step.status === 'failed')?.reason ?? ''}` : undefined,
      steps: results,
    },
  };
}

export function passingFlow(storage: Storage): Promise<SeededFlow> {
  return seedFlow(storage, 'invite-viewer', [
    {
      kind: 'do',
      label: 'do',
      text: 'Open the Team page and type alex@example.com into the invite field',
      status: 'passed',
      steps: [
        { action: { action: 'click', x: 120, y: 190 }, thought: 'The Team page is in the sidebar.', page: 'Overview', foldedAs: 'Overview page, the sidebar with Team below Projects.' },
        { action: { action: 'click', x: 520, y: 192 }, thought: 'Clicking into the invite field.', page: 'Team', foldedAs: 'Team page, the invite field empty, Send invite at the right.' },
        { action: { action: 'type', text: 'alex@example.com' }, thought: 'Typing the address.', page: 'Team' },
      ],
    },
    {
      kind: 'extract',
      label: 'extract',
      text: 'the address in the invite field',
      status: 'passed',
      as: 'invited',
      value: 'alex@example.com',
      reason: 'The invite field reads alex@example.com.',
      answer: 'evidence-last',
      steps: [{ action: { tool: 'answer', arguments: { value: 'alex@example.com' } }, thought: 'Reading the field.', page: 'Team', typed: 'alex@example.com' }],
    },
    {
      kind: 'assert',
      label: 'assert',
      text: 'the Send invite button is enabled',
      status: 'passed',
      reason: 'The Send invite button is shown in the accent colour, enabled.',
      answer: 'evidence-last',
      steps: [{ action: { tool: 'answer', arguments: { verdict: true } }, thought: 'Looking at the button.', page: 'Team', typed: 'alex@example.com', sameAsPrevious: true }],
    },
  ]);
}

export function failingFlow(storage: Storage): Promise<SeededFlow> {
  return seedFlow(storage, 'invite-confirmed', [
    {
      kind: 'do',
      label: 'do',
      text: 'Send the invite to alex@example.com',
      status: 'passed',
      steps: [
        { action: { action: 'click', x: 520, y: 192 }, thought: 'Clicking into the invite field.', page: 'Team', foldedAs: 'Team page, the invite field empty, Send invite at the right.' },
        { action: { action: 'click', x: 1130, y: 192 }, thought: 'Clicking Send invite.', page: 'Team', typed: 'alex@example.com', foldedAs: 'Team page, alex@example.com in the invite field.' },
      ],
    },
    {
      kind: 'assert',
      label: 'assert',
      text: 'a toast says the invite was sent',
      status: 'failed',
      reason: 'No toast is shown; a dialog asks "Invite as viewer?" instead.',
      answer: 'evidence-last',
      steps: [{ action: { tool: 'answer', arguments: { verdict: false } }, thought: 'Looking for the toast.', page: 'Team', typed: 'alex@example.com', dialog: 'Invite as viewer?' }],
    },
  ]);
}

/**
 * A replay healed after the screen differed from the recording: the step carries the divergence (the recorded
 * frame, the live one and the changed tiles) as issue 26's replay is to record it in the step's result.
 */
export async function healedReplay(storage: Storage): Promise<SeededFlow & { divergence: Divergence; recorded: ImageRecord }> {
  const seeded = await seedFlow(storage, 'replay-healed', [
    {
      kind: 'do',
      label: 'do',
      text: 'Open the Billing page',
      status: 'passed',
      steps: [{ action: { action: 'click', x: 120, y: 234 }, thought: 'Replayed: Billing in the sidebar.', page: 'Overview', result: { ok: true, source: 'replayed' } }],
    },
    {
      kind: 'do',
      label: 'do',
      text: 'Open the Team page',
      status: 'passed',
      steps: [{ action: { action: 'click', x: 120, y: 190 }, thought: 'The sidebar moved; the model found Team again.', page: 'Billing' }],
    },
  ]);
  const recorded = await storage.images.put({
    sessionId: seeded.session.id,
    turnId: null,
    bytes: await drawScreen({ width: WIDTH, height: HEIGHT, page: 'Billing', toast: 'Recorded last week' }),
    mime: 'image/png',
    width: WIDTH,
    height: HEIGHT,
    source: 'browser',
  });
  const live = seeded.images.at(-1);
  if (live === undefined) throw new Error('the replay needs a live frame');
  const divergence: Divergence = {
    recordedImageId: recorded.id,
    liveImageId: live.id,
    regions: [
      { x: 880, y: 710, width: 400, height: 90 },
      { x: 0, y: 56, width: 260, height: 200 },
    ],
    when: 'before',
  };
  const healedStep = storage.steps.listBySession(seeded.session.id).at(-1);
  if (healedStep === undefined) throw new Error('the replay needs a step');
  storage.steps.recordOutcome(healedStep.id, { result: { ok: true, source: 'healed', divergence } });
  return { ...seeded, divergence, recorded };
}

/** Markup everywhere a page or a model writes text: the report must show it as text and run none of it. */
export const HOSTILE_TITLE = '</script><img src=x onerror="window.__pwned=1">Checkout';
export const HOSTILE_SUMMARY = '<b>Done</b><script>window.__pwned=2</script><img src=y onerror="window.__pwned=3">';

export async function hostileSession(storage: Storage): Promise<SeededFlow> {
  return seedFlow(
    storage,
    'hostile',
    [
      {
        kind: 'extract',
        label: 'extract',
        text: `the page title ${HOSTILE_TITLE}`,
        status: 'passed',
        value: { title: HOSTILE_TITLE, note: '\u2028line\u2029end' },
        reason: HOSTILE_SUMMARY,
        answer: 'evidence-last',
        steps: [{ action: { tool: 'finish', arguments: { summary: HOSTILE_SUMMARY } }, thought: HOSTILE_SUMMARY, page: 'Overview' }],
      },
    ],
    { title: HOSTILE_TITLE },
  );
}

/** A run of several flows, as `sightline flow` returns it. */
export function flowRun(flows: readonly SeededFlow[]): FlowRunResult {
  return { startedAt: flows[0]?.result.startedAt ?? new Date().toISOString(), durationMs: flows.reduce((sum, flow) => sum + flow.result.durationMs, 0), shard: undefined, flows: flows.map((flow) => flow.result) };
}
