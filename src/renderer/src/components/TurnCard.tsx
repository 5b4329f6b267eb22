import type { ReactElement } from 'react';
import type { Injection, Turn } from '../../../shared/app-api.js';
import { STEP_KIND_LABELS } from '../timeline/answer-presentation.js';
import { replaySavings } from '../../../shared/replay.js';
import { describeUsage, formatCost, formatDuration, formatFullTime, formatUsage, formatWhen, plural } from '../timeline/format.js';
import { InjectionBadge } from './InjectionBadge.js';
import { TurnPictures } from './TurnPictures.js';

const STATUS_LABELS: Record<Turn['status'], string> = {
  running: 'Running',
  finished: 'Finished',
  failed: 'Failed',
  stopped: 'Stopped',
};

/**
 * A turn's header in the timeline: the request with its pictures, how it ended, its summary and its
 * injections; for a flow's step, which kind of step it was.
 */
export function TurnCard({ turn, injections }: { turn: Turn; injections: readonly Injection[] }): ReactElement {
  const duration = turn.endedAt === null ? null : new Date(turn.endedAt).getTime() - new Date(turn.startedAt).getTime();
  const cost = formatCost(turn.cost);
  // An answered step's summary is its answer's reason, which the answer row below shows.
  const summary = turn.answer !== null && turn.summary === turn.answer.reason ? null : turn.summary;
  return (
    <section className={`turn-card turn-${turn.status}`} aria-label={`Turn ${turn.sequence}`} data-turn-id={turn.id}>
      <div className="turn-head">
        <span className="turn-label">Turn {turn.sequence}</span>
        {turn.stepKind !== null ? (
          <span className={`step-kind step-kind-${turn.stepKind}`} title="The kind of flow step this turn ran">
            {STEP_KIND_LABELS[turn.stepKind]}
          </span>
        ) : null}
        <span className={`status-pill status-${turn.status}`}>{STATUS_LABELS[turn.status]}</span>
        <span className="turn-meta" title={formatFullTime(turn.startedAt)}>
          {formatWhen(turn.startedAt)}
          {duration !== null && duration >= 0 ? ` · ${formatDuration(duration)}` : ''} · {plural(turn.stepCount, 'step')}
        </span>
        {turn.replay !== undefined && turn.replay.mode !== 'model' ? <ReplayBadge replay={turn.replay} /> : null}
        {/* Said in words, not only by colour: the step failed, and its flow was allowed to go on without failing. */}
        {turn.allowedFailure === true ? (
          <span className="turn-allowed-failure" title="The flow step failed under continue_on_error: the flow went on and did not fail for it.">
            <span aria-hidden="true">!</span> failed, allowed by continue_on_error
          </span>
        ) : null}
        {turn.compactedAt !== null ? (
          <span className="turn-compacted" title={`Compacted ${formatFullTime(turn.compactedAt)}`}>
            compacted
          </span>
        ) : null}
        {turn.tokens.input > 0 || turn.tokens.output > 0 ? (
          <span className="turn-usage" title={describeUsage(turn.tokens)}>
            {formatUsage(turn.tokens)}
          </span>
        ) : null}
        {cost !== null ? (
          <span className="turn-cost" title="What the turn's model calls cost, as priced when each was made">
            {cost}
          </span>
        ) : null}
        <span className="turn-injections">
          {injections.map((injection) => (
            <InjectionBadge key={injection.id} injection={injection} />
          ))}
        </span>
      </div>
      <div className="turn-request-line">
        <p className="turn-request" title={turn.request}>
          {turn.request}
        </p>
        <TurnPictures pictures={turn.pictures} />
      </div>
      {summary !== null ? (
        <p className="turn-summary" title={summary}>
          {summary}
        </p>
      ) : null}
    </section>
  );
}

/** How a flow step ran when replayed: replayed, healed or diverged, with why and what it saved, in its title. */
function ReplayBadge({ replay }: { replay: NonNullable<Turn['replay']> }): ReactElement {
  const saved = replaySavings(replay).modelCalls;
  const divergence = replay.divergence;
  const why =
    divergence === undefined
      ? ''
      : ` The screen diverged ${divergence.phase} action ${divergence.action} (${divergence.actionText}): ${divergence.reason}.`;
  const label = replay.reusedAnswer === true ? 'replayed verdict' : replay.mode;
  const title = `${replay.replayedActions} recorded action${replay.replayedActions === 1 ? '' : 's'} replayed without the model; ${plural(replay.modelCalls, 'model call')}${saved > 0 ? `, ${saved} saved against the recorded run` : ''}.${why}`;
  return (
    <span className={`turn-replay replay-${replay.mode}`} title={title}>
      {label}
    </span>
  );
}
