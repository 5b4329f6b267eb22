import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { EvidenceFrame, ImageSummary, Step, Turn } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useSessionTimeline } from '../hooks/use-session-timeline.js';
import { useVirtualWindow } from '../hooks/use-virtual-window.js';
import { cropBoxesFor } from '../timeline/crop-boxes.js';
import { describeUsage, formatCost, formatFullTime, formatUsage, formatWhen, plural } from '../timeline/format.js';
import { rowHeights, timelineRows, type TimelineRow } from '../timeline/timeline-rows.js';
import { tokenSeries } from '../timeline/token-series.js';
import { answerHeading } from '../timeline/answer-presentation.js';
import { AnswerCard } from './AnswerCard.js';
import { AnswerValueDialog } from './AnswerValueDialog.js';
import { ConfirmationPrompt } from './ConfirmationPrompt.js';
import { ExportReportButton } from './ExportReportButton.js';
import { FlowMark } from './FlowMark.js';
import { ImageViewer, type EvidenceContext } from './ImageViewer.js';
import { QuestionPrompt } from './QuestionPrompt.js';
import { RunControls } from './RunControls.js';
import { SearchReportCard } from './SearchReportCard.js';
import { StepRow } from './StepRow.js';
import { GeneratedMediaRow } from './GeneratedMediaRow.js';
import { ThinkingRow } from './ThinkingRow.js';
import { TokenChart } from './TokenChart.js';
import { TokenMeter } from './TokenMeter.js';
import { TurnCard } from './TurnCard.js';

/** What the viewer shows: a step's screenshot, or a frame an answer named (with its step when one is loaded). */
interface Viewing {
  step: Step | null;
  screenshot: ImageSummary;
  evidence?: EvidenceContext;
}

type OpenEvidence = (turn: Turn, frame: EvidenceFrame & { image: ImageSummary }) => void;

export interface SessionViewProps {
  sessionId: string;
  /** Opens the new-task form to continue this session. */
  onContinue: () => void;
}

/**
 * One session: its header (title, cost, run controls), what the agent waits on, and its turns and steps in
 * order as a windowed list: only the rows in view are in the DOM, and only their images load.
 */
export function SessionView({ sessionId, onContinue }: SessionViewProps): ReactElement {
  const client = useAppApi();
  const { state, reload } = useSessionTimeline(client, sessionId);
  const rows = useMemo(() => timelineRows(state), [state]);
  const heights = useMemo(() => rowHeights(rows), [rows]);
  const list = useVirtualWindow(heights, { followEnd: state.run !== null });
  const points = useMemo(() => tokenSeries(state.steps), [state.steps]);
  const [viewing, setViewing] = useState<Viewing | null>(null);
  const [valueShown, setValueShown] = useState<{ title: string; text: string } | null>(null);
  const canvas = useRef<HTMLDivElement | null>(null);
  const closeViewer = useCallback(() => setViewing(null), []);
  const closeValue = useCallback(() => setValueShown(null), []);
  const openStep = useCallback((step: Step) => setViewing(step.screenshot === null ? null : { step, screenshot: step.screenshot }), []);
  // The step that looked at the frame, when its page is loaded, so its action is drawn and its thought shown too.
  const openEvidence = useCallback<OpenEvidence>(
    (turn, frame) => {
      const step = state.steps.find((candidate) => candidate?.screenshot?.imageId === frame.imageId) ?? null;
      const answer = turn.answer;
      setViewing({
        step,
        screenshot: step?.screenshot ?? frame.image,
        evidence: { turnSequence: turn.sequence, heading: answer === null ? 'Answer' : answerHeading(turn.stepKind, answer), reason: answer?.reason ?? '' },
      });
    },
    [state.steps],
  );

  // Positions go in through the CSSOM (custom properties), which the CSP allows, unlike style attributes.
  useLayoutEffect(() => {
    canvas.current?.style.setProperty('--canvas-height', `${list.totalHeight}px`);
    canvas.current?.style.setProperty('--window-top', `${list.top}px`);
  }, [list.totalHeight, list.top]);

  if (state.status === 'failed' && state.session === null) {
    return (
      <section className="session-view">
        <p className="banner banner-error">Could not open the session: {state.error}</p>
      </section>
    );
  }
  const session = state.session;

  return (
    <section className="session-view" aria-label="Session timeline" aria-busy={state.status === 'loading'}>
      <header className="session-header">
        <div className="session-heading">
          <h2 className="session-name">{session?.title ?? 'Loading…'}</h2>
          {session !== null ? (
            <p className="session-facts">
              {session.flowName !== null ? <FlowMark name={session.flowName} /> : null}
              <span title={formatFullTime(session.createdAt)}>Started {formatWhen(session.createdAt)}</span>
              <span>{plural(state.turns.length, 'turn')}</span>
              <span>{plural(state.steps.length, 'step')}</span>
              {session.model !== null ? <span>{session.model}</span> : null}
              {session.operator !== null ? <span>{session.operator}</span> : null}
              <span className="session-usage" title={describeUsage(session.tokens)}>
                {formatUsage(session.tokens)}
              </span>
              {formatCost(session.cost) !== null ? (
                <span className="session-cost" title="What the session's model calls cost, as priced when each was made">
                  {formatCost(session.cost)}
                </span>
              ) : null}
            </p>
          ) : null}
          {session !== null ? <RunControls session={session} run={state.run} onContinue={onContinue} /> : null}
          {session !== null ? <ExportReportButton sessionId={session.id} /> : null}
        </div>
        {session !== null && session.tokens.sent !== null ? (
          <div className="session-tokens">
            <TokenMeter input={session.tokens.input} sent={session.tokens.sent} keepEverything={session.tokens.keepEverything} />
            <TokenChart points={points} />
          </div>
        ) : null}
      </header>
      {state.pending.length > 0 || state.runError !== null || state.warnings.length > 0 ? (
        <div className="session-notices">
          {state.pending.map((request) =>
            request.kind === 'confirmation' ? (
              <ConfirmationPrompt key={request.requestId} request={request} />
            ) : (
              <QuestionPrompt key={request.requestId} request={request} />
            ),
          )}
          {state.runError !== null ? (
            <p className="banner banner-error" role="alert">
              The run stopped: {state.runError}
            </p>
          ) : null}
          {state.warnings.map((warning, index) => (
            <p key={index} className="banner banner-warning">
              {warning}
            </p>
          ))}
        </div>
      ) : null}
      <div ref={list.scrollerRef} className="timeline-scroller" tabIndex={-1}>
        {state.status === 'ready' && rows.length === 0 ? <p className="timeline-empty">This session has no turns yet.</p> : null}
        <div ref={canvas} className="timeline-canvas">
          <div className="timeline-window">
            {rows.slice(list.start, list.end).map((row) => (
              <div key={row.key} className={`timeline-row row-${row.kind}${row.kind === 'answer' ? ` row-answer-${row.answer.kind}` : ''}`}>
                <RowContent row={row} onOpenImage={openStep} onOpenEvidence={openEvidence} onShowValue={setValueShown} onPinChanged={reload} />
              </div>
            ))}
          </div>
        </div>
      </div>
      {viewing !== null ? (
        <ImageViewer
          step={viewing.step}
          screenshot={viewing.screenshot}
          evidence={viewing.evidence}
          cropBoxes={cropBoxesFor(viewing.screenshot.imageId, state.steps)}
          onClose={closeViewer}
          onPinChanged={reload}
        />
      ) : null}
      {valueShown !== null ? <AnswerValueDialog title={valueShown.title} text={valueShown.text} onClose={closeValue} /> : null}
    </section>
  );
}

interface RowContentProps {
  row: TimelineRow;
  onOpenImage: (step: Step) => void;
  onOpenEvidence: OpenEvidence;
  onShowValue: (value: { title: string; text: string }) => void;
  onPinChanged: () => void;
}

function RowContent({ row, onOpenImage, onOpenEvidence, onShowValue, onPinChanged }: RowContentProps): ReactElement {
  switch (row.kind) {
    case 'turn':
      return <TurnCard turn={row.turn} injections={row.injections} />;
    case 'answer':
      return <AnswerCard turn={row.turn} answer={row.answer} onOpenEvidence={(frame) => onOpenEvidence(row.turn, frame)} onShowValue={onShowValue} />;
    case 'report':
      return <SearchReportCard report={row.report} />;
    case 'step':
      return <StepRow step={row.step} onOpenImage={onOpenImage} onPinChanged={onPinChanged} />;
    case 'media':
      return <GeneratedMediaRow media={row.media} />;
    case 'thinking':
      return <ThinkingRow text={row.text} />;
  }
}
