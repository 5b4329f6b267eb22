import { useState, type ReactElement } from 'react';
import type { RunState, SessionSummary } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';

const RUN_LABELS: Record<RunState, string> = { running: 'Running', paused: 'Paused', stopping: 'Stopping…' };

export interface RunControlsProps {
  session: SessionSummary;
  run: RunState | null;
  /** Opens the new-task form to continue this session. */
  onContinue: () => void;
}

/** Pause, resume and stop the session's run; when none is running, give it a new task. */
export function RunControls({ session, run, onContinue }: RunControlsProps): ReactElement {
  const client = useAppApi();
  const [failure, setFailure] = useState<string | null>(null);
  const act = async (call: () => Promise<unknown>) => {
    setFailure(null);
    try {
      await call();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };
  if (client === null) return <></>;
  if (run === null) {
    return (
      <div className="run-controls">
        {session.status === 'running' ? <span className="run-state run-state-external" title="A run in another process">Running elsewhere</span> : null}
        <button type="button" className="button" onClick={onContinue} disabled={session.status !== 'idle'}>
          Continue with a new task
        </button>
      </div>
    );
  }
  return (
    <div className="run-controls" aria-label="Run controls">
      <span className={`run-state run-state-${run}`}>
        <span className="run-state-dot" aria-hidden="true" />
        {RUN_LABELS[run]}
      </span>
      {run === 'paused' ? (
        <button type="button" className="button" onClick={() => void act(() => client.resumeRun(session.id))}>
          Resume
        </button>
      ) : (
        <button type="button" className="button" disabled={run === 'stopping'} onClick={() => void act(() => client.pauseRun(session.id))}>
          Pause
        </button>
      )}
      <button type="button" className="button button-danger" disabled={run === 'stopping'} onClick={() => void act(() => client.stopRun(session.id))}>
        Stop
      </button>
      {failure !== null ? (
        <span className="run-failure" role="alert">
          {failure}
        </span>
      ) : null}
    </div>
  );
}
