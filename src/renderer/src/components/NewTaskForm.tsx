import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type ReactElement } from 'react';
import { MAX_TASK_LENGTH, type StartRunArguments } from '../../../shared/app-api.js';
import { OPERATOR_KINDS, type OperatorKind } from '../../../shared/config.js';
import { missingPermissions, type PermissionCheck } from '../../../shared/permissions.js';
import { EPHEMERAL_CONTEXT_TYPES, MAX_EPHEMERAL_CONTEXT_LENGTH, type EphemeralContextType } from '../../../shared/ephemeral.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useFocusTrap } from '../hooks/use-focus-trap.js';
import type { Permissions } from '../hooks/use-permissions.js';
import { attachmentsOf, pictureRefusal, readPictureDraft, type PictureDraft } from '../pictures/picture-drafts.js';
import { PictureDrafts } from './PictureDrafts.js';

export interface NewTaskFormProps {
  /** Continue this session; a new session when absent. */
  sessionId?: string | undefined;
  onStarted: (sessionId: string) => void;
  onCancel: () => void;
  /**
   * What the desktop operator needs from this machine, in the timeline served to a browser (no banner there):
   * when the chosen operator is the desktop and something is missing, the form says so under the choice.
   */
  desktopRequirements?: Permissions | undefined;
}

const OPERATOR_LABELS: Record<OperatorKind, string> = { desktop: 'Desktop', browser: 'Browser' };
const CONTEXT_LABELS: Record<EphemeralContextType, string> = { note: 'Note', quote: 'Quote', document: 'Document', custom: 'Other' };

/**
 * Start a task: what to do, on which operator (the configured one by default), pictures for the model
 * (picked, pasted or dropped anywhere on the form), and optionally a note, quote or document for this one
 * request. That context reaches the model once and is never stored; the pictures are kept with the turn.
 */
export function NewTaskForm({ sessionId, onStarted, onCancel, desktopRequirements }: NewTaskFormProps): ReactElement {
  const client = useAppApi();
  const [task, setTask] = useState('');
  const [operator, setOperator] = useState<OperatorKind | 'default'>('default');
  const [url, setUrl] = useState('');
  const [withContext, setWithContext] = useState(false);
  const [contextType, setContextType] = useState<EphemeralContextType>('note');
  const [contextText, setContextText] = useState('');
  const [pictures, setPictures] = useState<PictureDraft[]>([]);
  const [pictureProblems, setPictureProblems] = useState<string[]>([]);
  const [dropping, setDropping] = useState(false);
  const [state, setState] = useState<{ status: 'idle' | 'starting' } | { status: 'failed'; message: string }>({ status: 'idle' });
  const dialog = useRef<HTMLDivElement | null>(null);
  const taskInput = useRef<HTMLTextAreaElement | null>(null);
  useFocusTrap(dialog, taskInput);

  // Asked afresh when the form opens: over HTTP nothing announces that a display came back.
  const recheckDesktop = desktopRequirements?.recheck;
  useEffect(() => recheckDesktop?.(), [recheckDesktop]);
  const desktopState = desktopRequirements?.state;
  const desktopChosen = operator === 'desktop' || (operator === 'default' && desktopState?.status === 'ready' && desktopState.permissions.desktopByDefault === true);
  const desktopLacks = desktopChosen && desktopState?.status === 'ready' ? missingPermissions(desktopState.permissions) : [];

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);

  const addPictures = async (files: readonly File[]) => {
    const problems: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const refusal = pictureRefusal(file, pictures.length + accepted.length);
      if (refusal === undefined) accepted.push(file);
      else problems.push(refusal);
    }
    setPictureProblems(problems);
    try {
      const drafts = await Promise.all(accepted.map(readPictureDraft));
      setPictures((earlier) => [...earlier, ...drafts]);
    } catch (error) {
      setPictureProblems([...problems, error instanceof Error ? error.message : String(error)]);
    }
  };

  // Only a paste that holds files is taken over: pasting text into the task stays as it is.
  const onPaste = (event: ClipboardEvent) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    void addPictures(files);
  };

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    // Without this the window would open the dropped file in place of the app.
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDropping(true);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    void addPictures([...event.dataTransfer.files]);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (client === null) return;
    const request: StartRunArguments = {
      task: task.trim(),
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(operator === 'default' ? {} : { operator }),
      ...(operator === 'browser' && url.trim() !== '' ? { url: url.trim() } : {}),
      ...(withContext && contextText.trim() !== '' ? { ephemeral: { type: contextType, content: contextText } } : {}),
      ...(pictures.length > 0 ? { pictures: attachmentsOf(pictures) } : {}),
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
      {/* The dialog holds the form rather than being it: role="dialog" is not allowed on a <form>. Pictures
          drop anywhere on the dialog. */}
      <div
        ref={dialog}
        className={`dialog new-task${dropping ? ' dropping' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby="new-task-title"
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
        onPaste={onPaste}
        onDragOver={onDragOver}
        onDragLeave={(event) => {
          // Leaving for one of the form's own fields is not leaving the form.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
        }}
        onDrop={onDrop}
      >
        <form className="dialog-form" onSubmit={(event) => void submit(event)}>
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
          <PictureDrafts
            pictures={pictures}
            problems={pictureProblems}
            onAdd={(files) => void addPictures(files)}
            onRemove={(key) => setPictures((earlier) => earlier.filter((picture) => picture.key !== key))}
          />
          <div className="field-row">
            <label className="field">
              <span className="field-label">Operator</span>
              <select
                className="text-input"
                value={operator}
                onChange={(event) => setOperator(event.target.value as OperatorKind | 'default')}
                name="operator"
                {...(desktopLacks.length > 0 ? { 'aria-describedby': 'operator-note' } : {})}>
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
          {desktopLacks.length > 0 ? (
            <p className="operator-note" id="operator-note">
              {desktopLacksText(desktopLacks)}
            </p>
          ) : null}
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
    </div>
  );
}

/** "Desktop tasks cannot run here: DISPLAY is not set (…). To fix: log in to an X11 session." One quiet line. */
function desktopLacksText(lacks: readonly PermissionCheck[]): string {
  const reasons = lacks.map((check) => `${check.consequence.replace(/\.$/, '')}${check.remedy === undefined ? '' : `; to fix: ${check.remedy.replace(/\.$/, '')}`}`);
  return `Desktop tasks cannot run here: ${reasons.join('. ')}.`;
}
