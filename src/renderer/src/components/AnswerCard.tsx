import type { ReactElement } from 'react';
import type { EvidenceFrame, Turn, TurnAnswerView } from '../../../shared/app-api.js';
import { answerHeading, answerValueText, answerVerdict, isLongValue } from '../timeline/answer-presentation.js';

export interface AnswerCardProps {
  turn: Turn;
  answer: TurnAnswerView;
  /** Opens an evidence frame in the image viewer. */
  onOpenEvidence: (frame: EvidenceFrame & { image: NonNullable<EvidenceFrame['image']> }) => void;
  /**
   * Shows a long value whole (AnswerValueDialog). The session view holds the dialog: a row is inside the
   * windowed list, which moves it with a transform and drops it once scrolled away.
   */
  onShowValue: (value: { title: string; text: string }) => void;
}

/**
 * The answer of a turn that asked a question (a flow's assert, if, wait_for or extract): the verdict in words
 * and colour, the model's reason, an extracted value as JSON text, and the frames it relied on, each opening
 * in the viewer. Every text here is the model's (or a page's): React sets it as text, never as markup.
 */
export function AnswerCard({ turn, answer, onOpenEvidence, onShowValue }: AnswerCardProps): ReactElement {
  const heading = answerHeading(turn.stepKind, answer);
  const verdict = answerVerdict(turn.stepKind, answer);
  const valueText = answer.kind === 'value' ? answerValueText(answer.value) : null;
  return (
    <section className={`answer-card answer-${verdict?.tone ?? 'extracted'}`} aria-label={`Turn ${turn.sequence}: ${heading}`} data-turn-id={turn.id}>
      <div className="answer-head">
        <span className="answer-heading">{heading}</span>
        {verdict !== null ? (
          <span className={`verdict-pill verdict-${verdict.tone}`}>
            <span aria-hidden="true">{verdict.mark}</span> {verdict.label}
          </span>
        ) : null}
      </div>
      <p className="answer-reason" title={answer.reason}>
        <span className="answer-field">Reason</span> {answer.reason}
      </p>
      {valueText !== null ? (
        <div className="answer-value-line">
          {/* Focusable so the keyboard can scroll what the row clips. */}
          <pre className="answer-value" tabIndex={0} aria-label="Extracted value as JSON">
            {valueText}
          </pre>
          {isLongValue(valueText) ? (
            <button type="button" className="button button-small answer-show-all" onClick={() => onShowValue({ title: `${heading} of turn ${turn.sequence}`, text: valueText })}>
              Show all
            </button>
          ) : null}
        </div>
      ) : null}
      <div className="answer-evidence">
        <span className="answer-field">Evidence</span>
        {answer.evidence.length === 0 ? (
          <span className="answer-none">none named</span>
        ) : (
          <ul className="evidence-list">
            {answer.evidence.map((frame) => (
              <li key={frame.imageId}>
                <EvidenceLink frame={frame} onOpen={onOpenEvidence} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function EvidenceLink({ frame, onOpen }: { frame: EvidenceFrame; onOpen: AnswerCardProps['onOpenEvidence'] }): ReactElement {
  const { image } = frame;
  if (image === null) {
    return (
      <span className="evidence-missing" title="This session has no image of this id">
        <code>{frame.imageId}</code> (not found)
      </span>
    );
  }
  // Named by the id it shows (WCAG 2.5.3); the title says what a click does.
  return (
    <button type="button" className="evidence-link" data-image-id={image.imageId} title={`Open ${image.imageId} in the viewer`} onClick={() => onOpen({ imageId: frame.imageId, image })}>
      {image.imageId}
    </button>
  );
}
