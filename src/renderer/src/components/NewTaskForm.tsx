import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { MAX_TASK_LENGTH, type StartRunArguments } from '../../../shared/app-api.js';
import { OPERATOR_KINDS, type OperatorKind } from '../../../shared/config.js';
import { EPHEMERAL_CONTEXT_TYPES, MAX_EPHEMERAL_CONTEXT_LENGTH, type EphemeralContextType } from '../../../shared/ephemeral.js';
import { useAppApi } from '../hooks/app-api-context.js';

export interface NewTaskFormProps {
  /** Continue this session; a new session when absent. */
  sessionId?: string | undefined;
  onStarted: (sessionId: string) => void;
  onCancel: () => void;
}

const OPERATOR_LABELS: Record<OperatorKind, string> = { desktop: 'Desktop', browser: 'Browser' };
const CONTEXT_LABELS: Record<EphemeralContextType, string> = { note: 'Note', quote: 'Quote', document: 'Document', custom: 'Other' };

/**
 * Start a task: what to do, on which operator (the configured one by default), and optionally a note,
 * quote or document for this one request. That context reaches the model once and is never stored.
 */
export function NewTaskForm({ sessionId, onStarted, onCancel }: NewTaskFormProps): ReactElement {
  const client = useAppApi();
  const [task, setTask] = useState('');
  const [operator, setOperator] = useState<OperatorKind | 'default'>('default');
  const [url, setUrl] = useState('');
  const [withContext, setWithContext] = useState(false);
  const [contextType, setContextType] = useState<EphemeralContextType>('note');
  const [contextText, setContextText] = useState('');
  const [state, setState] = useState<{ status: 'idle' | 'starting' } | { status: 'failed'; message: string }>({ status: 'idle' });
  const taskInput = useRef<HTMLTextAreaElement | null>(null);

  useEffect(() => {
    taskInput.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (client === null) return;
    const request: StartRunArguments = {
      task: task.trim(),
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(operator === 'default' ? {} : { operator }),
      ...(operator === 'browser' && url.trim() !== '' ? { url: url.trim() } : {}),
      ...(withContext && contextText.trim() !== '' ? { ephemeral: { type: contextType, content: contextText } } : {}),
    };
    setState({ status: 'starting' });
    try {
      const started = await client.startRun(request);
      onStarted(started.sessionId);
    } catch (error) {
      setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };

  const ready = task.trim() !== '' && (!withContext || contextText.trim() !== '') && state.status !== 'starting';
  return (
    <div className="dialog-backdrop" onClick={onCancel}>
      <form
        className="dialog new-task"
        role="dialog"
        aria-modal="true"
        aria-labelledby="new-task-title"
        onClick={(event) => event.stopPropagation()}
        onSubmit={(event) => void submit(event)}
      >
        <h2 id="new-task-title" className="dialog-title">
          {sessionId === undefined ? 'New task' : 'Continue the session'}
        </h2>
        <label className="field">
          <span className="field-label">Task</span>
          <textarea
            ref={taskInput}
            className="text-input task-input"
            value={task}
            onChange={(event) => setTask(event.target.value)}
            placeholder="Open the team settings and invite alex@example.com as a viewer"
            rows={3}
            maxLength={MAX_TASK_LENGTH}
            name="task"
          />
        </label>
        <div className="field-row">
          <label className="field">
            <span className="field-label">Operator</span>
            <select className="text-input" value={operator} onChange={(event) => setOperator(event.target.value as OperatorKind | 'default')} name="operator">
              <option value="default">As configured</option>
              {OPERATOR_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {OPERATOR_LABELS[kind]}
                </option>
              ))}
            </select>
          </label>
          {operator === 'browser' ? (
            <label className="field field-grow">
              <span className="field-label">Start page</span>
              <input className="text-input" type="url" value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://…" name="url" />
            </label>
          ) : null}
        </div>
        <label className="toggle">
          <input type="checkbox" checked={withContext} onChange={(event) => setWithContext(event.target.checked)} name="with-context" />
          <span className="toggle-track" aria-hidden="true" />
          <span>
            Attach context to this request
            <span className="toggle-hint">Sent once with this task, never stored: only its type and length are recorded.</span>
          </span>
        </label>
        {withContext ? (
          <div className="context-fields">
            <div className="segmented" role="radiogroup" aria-label="Kind of context">
              {EPHEMERAL_CONTEXT_TYPES.map((type) => (
                <button
                  key={type}
                  type="button"
                  role="radio"
                  aria-checked={contextType === type}
                  className={contextType === type ? 'selected' : ''}
                  onClick={() => setContextType(type)}
                >
                  {CONTEXT_LABELS[type]}
                </button>
              ))}
            </div>
            <textarea
              className="text-input"
              value={contextText}
              onChange={(event) => setContextText(event.target.value)}
              placeholder={contextType === 'document' ? 'Paste the document' : contextType === 'quote' ? 'Paste the quote' : 'Write the note'}
              rows={4}
              maxLength={MAX_EPHEMERAL_CONTEXT_LENGTH}
              name="context"
              aria-label="Context"
            />
          </div>
        ) : null}
        {state.status === 'failed' ? (
          <p className="form-failure" role="alert">
            {state.message}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={!ready}>
            {state.status === 'starting' ? 'Starting…' : 'Start'}
          </button>
        </div>
      </form>
    </div>
  );
}
