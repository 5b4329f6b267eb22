import { useState, type ReactElement } from 'react';
import type { SessionSummary } from '../../../shared/app-api.js';
import type { Sessions } from '../hooks/use-sessions.js';
import { FlowMark } from './FlowMark.js';
import { imageSavings, savingsPercent, SAVINGS_BASIS } from '../../../shared/image-savings.js';
import { formatFullTime, formatWhen, plural } from '../timeline/format.js';

export interface SessionListProps {
  sessions: Sessions;
  selectedId: string | null;
  onSelect: (sessionId: string) => void;
  /** Called after a session was deleted (the open one closes). */
  onDeleted: (sessionId: string) => void;
  /** False in a preview with nothing to load from. */
  connected: boolean;
}

/** The sidebar: every session, newest first, searchable by title or request, each deletable. */
export function SessionList({ sessions, selectedId, onSelect, onDeleted, connected }: SessionListProps): ReactElement {
  return (
    <nav className="sidebar" aria-labelledby="sessions-heading">
      <div className="sidebar-top">
        <h2 id="sessions-heading" className="sidebar-heading">
          Sessions
          {sessions.status === 'ready' ? <span className="sidebar-count">{sessions.total}</span> : null}
        </h2>
        <input
          className="text-input search-input"
          type="search"
          placeholder="Search titles and requests"
          aria-label="Search sessions"
          value={sessions.query}
          onChange={(event) => sessions.setQuery(event.target.value)}
          disabled={!connected}
        />
      </div>
      {!connected ? (
        <p className="sidebar-empty">Open the timeline from Sightline to see sessions.</p>
      ) : sessions.status === 'failed' ? (
        <p className="sidebar-empty sidebar-error">Could not load sessions: {sessions.error}</p>
      ) : sessions.status === 'loading' ? (
        <p className="sidebar-empty">Loading…</p>
      ) : sessions.sessions.length === 0 ? (
        <p className="sidebar-empty">{sessions.query.trim() === '' ? 'No sessions yet.' : 'No session matches.'}</p>
      ) : (
        <ul className="session-list">
          {sessions.sessions.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              selected={session.id === selectedId}
              onSelect={() => onSelect(session.id)}
              onDelete={async () => {
                await sessions.remove(session.id);
                onDeleted(session.id);
              }}
            />
          ))}
        </ul>
      )}
    </nav>
  );
}

function SessionItem({
  session,
  selected,
  onSelect,
  onDelete,
}: {
  session: SessionSummary;
  selected: boolean;
  onSelect: () => void;
  onDelete: () => Promise<void>;
}): ReactElement {
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const savings = imageSavings(session.tokens);
  const status = session.run ?? session.status;
  const remove = async () => {
    try {
      await onDelete();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setConfirming(false);
    }
  };
  return (
    <li className={`session-item ${selected ? 'selected' : ''}`} data-session-id={session.id}>
      <button type="button" className="session-open" onClick={onSelect} aria-current={selected ? 'true' : undefined}>
        <span className="session-title-line">
          <span className={`status-dot status-${status}`} title={status} aria-label={status} />
          <span className="session-title">{session.title || 'Untitled session'}</span>
          <time className="session-time" dateTime={session.updatedAt} title={formatFullTime(session.updatedAt)}>
            {formatWhen(session.updatedAt)}
          </time>
        </span>
        {session.flowName !== null ? <FlowMark name={session.flowName} className="session-flow" /> : null}
        <span className="session-meta">
          <span>
            {plural(session.turnCount, 'turn')} · {plural(session.stepCount, 'step')}
          </span>
          {savings !== null ? (
            <span className="saved-pill" title={`Input tokens saved by folding images, ${SAVINGS_BASIS}`}>
              −{savingsPercent(savings)} tokens
            </span>
          ) : null}
        </span>
      </button>
      {confirming ? (
        <div className="delete-confirm" role="alertdialog" aria-label={`Delete ${session.title}?`}>
          <span>Delete this session and its screenshots?</span>
          <span className="delete-confirm-actions">
            <button type="button" className="button button-small" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className="button button-small button-danger" onClick={() => void remove()}>
              Delete
            </button>
          </span>
        </div>
      ) : (
        <button type="button" className="icon-button session-delete" aria-label={`Delete session ${session.title}`} title="Delete session" onClick={() => setConfirming(true)}>
          <svg viewBox="0 0 16 16" aria-hidden="true">
            <path d="M6 2h4M3 4h10M5 4l.6 9h4.8L11 4" />
          </svg>
        </button>
      )}
      {failure !== null ? (
        <p className="session-failure" role="alert">
          {failure}
        </p>
      ) : null}
    </li>
  );
}
