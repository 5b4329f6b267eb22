/** @jsxRuntime automatic */
// The pragma: the report is rendered in the main process (src/main/report/), under tsx as well as Vite.
import type { ReactElement } from 'react';
import { shownCost } from '../../../shared/cost.js';
import { savingsPercent, SAVINGS_BASIS } from '../../../shared/image-savings.js';
import type { ReportFlow, ReportFlowStep, ReportModel, ReportSession, ReportTurn } from '../../../shared/report-model.js';
import { formatDuration, formatFullTime, formatTokens, plural } from '../timeline/format.js';
import { FrameSourcesContext, frameSources } from './frame-sources.js';
import { EvidenceLinks, FlowStepTurn, ReportTurnSection } from './ReportSteps.js';
import { valueText } from './report-text.js';

export interface ReportDocumentProps {
  model: ReportModel;
  /** Each frame's data: URL by its key. */
  urls: ReadonlyMap<string, string>;
  css: string;
  script: string;
  contentSecurityPolicy: string;
  /** The model as JSON, already made safe to sit inside a <script> element (report-html.ts). */
  dataJson: string;
}

const FLOW_STATUS = { passed: 'Passed', failed: 'Failed', stopped: 'Stopped', skipped: 'Skipped' } as const;

/**
 * The whole report as one HTML document: the header with what was run and how it ended, then the flows
 * (failures first) with their steps and the agent's steps under each, or the session's turns. Every text is a
 * React text node, so what pages and models wrote is escaped; the only markup not made by React is ours (the
 * styles, the script, and the model as escaped JSON).
 */
export function ReportDocument({ model, urls, css, script, contentSecurityPolicy, dataJson }: ReportDocumentProps): ReactElement {
  const sources = frameSources(model.frames, urls, shownImages(model));
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta httpEquiv="Content-Security-Policy" content={contentSecurityPolicy} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="generator" content={`Sightline ${model.sightlineVersion}`} />
        <title>{model.title}</title>
        <style dangerouslySetInnerHTML={{ __html: css }} />
      </head>
      <body className="report">
        <a className="skip-link" href="#report-main">
          Skip to the report
        </a>
        <FrameSourcesContext.Provider value={sources}>
          <header className="report-header">
            <h1 className="report-title">{model.title}</h1>
            <ReportFacts model={model} />
            {model.notices.map((notice, index) => (
              <p key={index} className={`banner ${notice.kind === 'size-cap' ? 'banner-warning' : 'banner-error'} report-notice`} role="note">
                {notice.text}
              </p>
            ))}
          </header>
          {model.body.kind === 'flow-run' ? <FlowContents flows={model.body.flows} /> : null}
          <main id="report-main" className="report-main">
            {model.body.kind === 'flow-run' ? (
              model.body.flows.map((flow, index) => <FlowSection key={index} flow={flow} index={index} />)
            ) : (
              <SessionTurns session={model.body.session} />
            )}
          </main>
        </FrameSourcesContext.Provider>
        <footer className="report-footer">
          Written by Sightline {model.sightlineVersion} on {formatFullTime(model.generatedAt)}. Everything is in this file: it loads nothing.
        </footer>
        <script type="application/json" id="sightline-report-data" dangerouslySetInnerHTML={{ __html: dataJson }} />
        <script dangerouslySetInnerHTML={{ __html: script }} />
      </body>
    </html>
  );
}

function ReportFacts({ model }: { model: ReportModel }): ReactElement {
  const { body } = model;
  if (body.kind === 'session') {
    const { session } = body;
    return (
      <p className="session-facts report-facts">
        <span className={`status-pill status-${session.status}`}>{session.status}</span>
        {session.flowName !== null ? <span>flow {session.flowName}</span> : null}
        <span>Started {formatFullTime(session.createdAt)}</span>
        <span>{plural(session.turns.length, 'turn')}</span>
        <span>{plural(session.turns.reduce((sum, turn) => sum + turn.steps.length, 0), 'step')}</span>
        {session.model !== null ? <span>{session.model}</span> : null}
        {session.operator !== null ? <span>{session.operator}</span> : null}
        <span>
          {formatTokens(session.inputTokens)} in · {formatTokens(session.outputTokens)} out
        </span>
        {session.savings !== null && session.savings.keptWhole > 0 ? (
          <span className="session-savings" title={`${formatTokens(session.savings.keptWhole)} input tokens with every image kept whole`}>
            {savingsPercent(session.savings)} fewer input tokens {SAVINGS_BASIS}
          </span>
        ) : null}
        {shownCost(session.costDollars, session.costUnknown) !== null ? <span className="session-cost">{shownCost(session.costDollars, session.costUnknown)}</span> : null}
        <span>
          session <code>{session.id}</code>
        </span>
      </p>
    );
  }
  const count = (status: ReportFlow['status']) => body.flows.filter((flow) => flow.status === status).length;
  const cost = body.flows.reduce<number | null>((sum, flow) => (flow.costDollars === null ? sum : (sum ?? 0) + flow.costDollars), null);
  const costShown = shownCost(cost, body.flows.some((flow) => flow.costUnknown));
  return (
    <p className="session-facts report-facts">
      <span className={`status-pill status-${body.status}`}>{FLOW_STATUS[body.status]}</span>
      <span>{plural(body.flows.length, 'flow')}</span>
      <span>
        {count('passed')} passed, {count('failed')} failed{count('stopped') > 0 ? `, ${count('stopped')} stopped` : ''}
      </span>
      <span>Started {formatFullTime(body.startedAt)}</span>
      <span>{formatDuration(body.durationMs)}</span>
      {costShown !== null ? <span className="session-cost">{costShown}</span> : null}
      {body.shard !== null ? <span>shard {body.shard}</span> : null}
    </p>
  );
}

function FlowContents({ flows }: { flows: readonly ReportFlow[] }): ReactElement | null {
  if (flows.length < 2) return null;
  return (
    <nav className="report-contents" aria-label="Flows">
      <ol>
        {flows.map((flow, index) => (
          <li key={index}>
            <a href={`#flow-${index + 1}`}>{flow.name}</a> <span className={`status-pill status-${flow.status}`}>{FLOW_STATUS[flow.status]}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function FlowSection({ flow, index }: { flow: ReportFlow; index: number }): ReactElement {
  const id = `flow-${index + 1}`;
  const turns = new Map((flow.session?.turns ?? []).map((turn) => [turn.id, turn]));
  const claimed = new Set(flow.steps.map((step) => step.turnId));
  // Turns no flow step names (a retry's, a setup's) still belong to the session: shown after the steps.
  const others = (flow.session?.turns ?? []).filter((turn) => !claimed.has(turn.id));
  return (
    <section className={`report-flow flow-${flow.status}`} id={id} aria-labelledby={`${id}-title`}>
      <header className="report-flow-header">
        <h2 id={`${id}-title`} className="report-flow-name">
          {flow.name}
        </h2>
        <span className={`status-pill status-${flow.status}`}>{FLOW_STATUS[flow.status]}</span>
        <p className="session-facts">
          <span>{flow.file}</span>
          <span>{formatDuration(flow.durationMs)}</span>
          {shownCost(flow.costDollars, flow.costUnknown) !== null ? <span>{shownCost(flow.costDollars, flow.costUnknown)}</span> : null}
          {flow.attempts > 1 ? <span>{plural(flow.attempts, 'attempt')}</span> : null}
          {flow.session !== null ? (
            <span>
              session <code>{flow.session.id}</code>
            </span>
          ) : null}
        </p>
        {flow.error !== null ? <p className="flow-error report-wrap">{flow.error}</p> : null}
      </header>
      <ol className="flow-steps">
        {flow.steps.map((step) => (
          <FlowStepItem key={step.path} step={step} turn={step.turnId === null ? undefined : turns.get(step.turnId)} flowIndex={index} />
        ))}
      </ol>
      {others.map((turn) => (
        <ReportTurnSection key={turn.id} turn={turn} />
      ))}
    </section>
  );
}

function FlowStepItem({ step, turn, flowIndex }: { step: ReportFlowStep; turn: ReportTurn | undefined; flowIndex: number }): ReactElement {
  const headingId = `flow-${flowIndex + 1}-step-${step.path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <li className={`flow-step flow-step-${step.status}`} aria-labelledby={headingId}>
      <div className="flow-step-head">
        <h3 className="flow-step-title" id={headingId}>
          <span className="flow-step-path">{step.path}</span> <span className="flow-step-label">{step.label}</span>
          {step.text !== null ? <span className="flow-step-text"> {step.text}</span> : null}
        </h3>
        <span className={`status-pill status-${step.status}`}>{FLOW_STATUS[step.status]}</span>
        {step.allowed ? <span className="flow-step-continued flow-step-allowed">allowed to fail (continue_on_error): the flow does not fail for it</span> : null}
        {step.continued ? <span className="flow-step-continued">went on (--continue-on-error)</span> : null}
        <span className="flow-step-meta">
          {step.line !== null ? `line ${step.line} · ` : ''}
          {formatDuration(step.durationMs)}
          {shownCost(step.costDollars, step.costUnknown) !== null ? ` · ${shownCost(step.costDollars, step.costUnknown)}` : ''}
        </span>
      </div>
      {step.hasValue ? (
        <p className="answer-line">
          <span className="answer-label">{step.kind === 'extract' ? `Value${step.as !== null ? ` (${step.as})` : ''}` : 'Verdict'}</span>{' '}
          {typeof step.value === 'boolean' ? <span className={`verdict verdict-${String(step.value)}`}>{String(step.value)}</span> : <code className="answer-value">{valueText(step.value)}</code>}
        </p>
      ) : null}
      {step.reason !== null ? <p className="flow-step-reason report-wrap">{step.reason}</p> : null}
      <EvidenceLinks evidence={step.evidence} />
      {turn !== undefined ? <FlowStepTurn turn={turn} stepPath={step.path} /> : null}
    </li>
  );
}

function SessionTurns({ session }: { session: ReportSession }): ReactElement {
  return (
    <>
      <h2 className="visually-hidden">Turns</h2>
      {session.turns.length === 0 ? <p className="timeline-empty">This session has no turns.</p> : null}
      {session.turns.map((turn) => (
        <ReportTurnSection key={turn.id} turn={turn} />
      ))}
    </>
  );
}

/** The image ids the steps and divergences show: an answer's evidence among them is a link, the others a frame. */
function shownImages(model: ReportModel): Set<string> {
  const sessions = model.body.kind === 'session' ? [model.body.session] : model.body.flows.flatMap((flow) => (flow.session === null ? [] : [flow.session]));
  const shown = new Set<string>();
  for (const session of sessions) {
    for (const turn of session.turns) {
      for (const step of turn.steps) {
        if (step.shot !== null && step.shot.frameKey !== null) shown.add(step.shot.imageId);
        if (step.divergence !== null) {
          shown.add(step.divergence.recordedImageId);
          shown.add(step.divergence.liveImageId);
        }
      }
    }
  }
  return shown;
}
