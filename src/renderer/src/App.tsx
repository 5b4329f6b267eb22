import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { connectAppApi } from './api/index.js';
import { ApiKeysDialog } from './components/ApiKeysDialog.js';
import { NewTaskForm } from './components/NewTaskForm.js';
import { PermissionsPanel } from './components/PermissionsPanel.js';
import { SessionList } from './components/SessionList.js';
import { SessionView } from './components/SessionView.js';
import { AppApiContext } from './hooks/app-api-context.js';
import { usePermissions } from './hooks/use-permissions.js';
import { useSessions } from './hooks/use-sessions.js';
import { useAppInfo, type AppConnection } from './use-app-info.js';

/** The new-task form, either for a new session or to continue one. */
type TaskForm = { open: false } | { open: true; sessionId: string | undefined };

export function App(): ReactElement {
  const client = useMemo(() => connectAppApi(), []);
  const connection = useAppInfo(client);
  const sessions = useSessions(client);
  const permissions = usePermissions(client);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [taskForm, setTaskForm] = useState<TaskForm>({ open: false });
  const closeTaskForm = useCallback(() => setTaskForm({ open: false }), []);
  const [keysOpen, setKeysOpen] = useState(false);
  const closeKeys = useCallback(() => setKeysOpen(false), []);
  const onStarted = useCallback(
    (sessionId: string) => {
      setTaskForm({ open: false });
      setSelectedId(sessionId);
      sessions.refresh();
    },
    [sessions],
  );

  return (
    <AppApiContext.Provider value={client}>
      <div className="shell">
        <header className="header">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true" />
            <h1 className="brand-name">Sightline</h1>
          </div>
          <div className="header-actions">
            <ConnectionBadge connection={connection} />
            <button type="button" className="button" disabled={client === null} onClick={() => setKeysOpen(true)}>
              API keys
            </button>
            <button type="button" className="button button-primary" disabled={client === null} onClick={() => setTaskForm({ open: true, sessionId: undefined })}>
              New task
            </button>
          </div>
        </header>
        {/* The banner belongs to the desktop app, whose desktop operator it is. The timeline served to a browser is often a
            server with no display: there the task form says what the desktop lacks, once, where it is chosen. */}
        {client?.transport === 'ipc' ? <PermissionsPanel permissions={permissions} canOpenSettings /> : null}
        <div className="shell-body">
          <SessionList
            sessions={sessions}
            selectedId={selectedId}
            onSelect={setSelectedId}
            onDeleted={(sessionId) => setSelectedId((current) => (current === sessionId ? null : current))}
            connected={client !== null}
          />
          <main className="timeline" aria-label="Timeline">
            {selectedId === null ? (
              <EmptyTimeline />
            ) : (
              <SessionView key={selectedId} sessionId={selectedId} onContinue={() => setTaskForm({ open: true, sessionId: selectedId })} />
            )}
          </main>
        </div>
        {taskForm.open ? <NewTaskForm sessionId={taskForm.sessionId} onStarted={onStarted} onCancel={closeTaskForm} desktopRequirements={client?.transport === 'http' ? permissions : undefined} /> : null}
        {keysOpen ? <ApiKeysDialog onClose={closeKeys} /> : null}
      </div>
    </AppApiContext.Provider>
  );
}

function ConnectionBadge({ connection }: { connection: AppConnection }): ReactElement {
  switch (connection.state) {
    case 'connecting':
      return <span className="badge">Connecting…</span>;
    case 'connected':
      return (
        <span className="badge badge-ok" title={connection.transport === 'http' ? 'Served by sightline timeline' : 'Connected to the Sightline app'}>
          v{connection.info.version} · {platformName(connection.info.platform)}
        </span>
      );
    case 'preview':
      return (
        <span className="badge" title="Opened outside the Sightline app: nothing to load sessions from">
          Preview
        </span>
      );
    case 'failed':
      return (
        <span className="badge badge-error" title={connection.message}>
          Not connected
        </span>
      );
  }
}

function EmptyTimeline(): ReactElement {
  return (
    <section className="empty-state">
      <div className="empty-state-art" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <h2 className="empty-state-title">Pick a session to see what the agent saw</h2>
      <p className="empty-state-text">
        Every turn and step, the screenshots it looked at, and which of them it folded away or recalled. Start a new task to watch one
        live.
      </p>
    </section>
  );
}

const PLATFORM_NAMES: Partial<Record<string, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

function platformName(platform: string): string {
  return PLATFORM_NAMES[platform] ?? platform;
}
