import { useEffect, useRef, type ReactElement } from 'react';
import { useFocusTrap } from '../hooks/use-focus-trap.js';

export interface AnswerValueDialogProps {
  title: string;
  /** The value as indented JSON. */
  text: string;
  onClose: () => void;
}

/** An extracted value whole, for one too long for its row: scrollable, closed with Escape or Close. */
export function AnswerValueDialog({ title, text, onClose }: AnswerValueDialogProps): ReactElement {
  const dialog = useRef<HTMLDivElement | null>(null);
  const closeButton = useRef<HTMLButtonElement | null>(null);
  useFocusTrap(dialog, closeButton);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div
        ref={dialog}
        className="dialog answer-value-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="answer-value-title"
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="answer-value-title" className="dialog-title">
          {title}
        </h2>
        <pre className="answer-value-whole" tabIndex={0} aria-label="The whole value as JSON">
          {text}
        </pre>
        <div className="dialog-actions">
          <button ref={closeButton} type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
