import type { ReactElement } from 'react';

/** The model's text streaming in before its step is recorded. */
export function ThinkingRow({ text }: { text: string }): ReactElement {
  return (
    <div className="thinking-row" aria-live="polite">
      <span className="thinking-dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      <p className="thinking-text">{text.trim() === '' ? 'Thinking…' : text}</p>
    </div>
  );
}
