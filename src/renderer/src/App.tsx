import type { ReactElement } from 'react';
import { useAppInfo, type AppConnection } from './use-app-info.js';

export function App(): ReactElement {
  const connection = useAppInfo();
  return (
    <div className="shell">
      <Header connection={connection} />
      <div className="shell-body">
        <SessionsSidebar />
        <main className="timeline" aria-label="Timeline">
          <EmptyTimeline />
        </main>
      </div>
    </div>
  );
}

function Header({ connection }: { connection: AppConnection }): ReactElement {
  return (
    <header className="header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <h1 className="brand-name">Sightline</h1>
      </div>
      <ConnectionBadge connection={connection} />
    </header>
  );
}

function ConnectionBadge({ connection }: { connection: AppConnection }): ReactElement {
  switch (connection.state) {
    case 'connecting':
      return <span className="badge">Connecting…</span>;
    case 'connected':
      return (
        <span className="badge badge-ok" title="Connected to the Sightline app">
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

function SessionsSidebar(): ReactElement {
  return (
    <nav className="sidebar" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="sidebar-heading">
        Sessions
      </h2>
      <p className="sidebar-empty">No sessions yet.</p>
    </nav>
  );
}

function EmptyTimeline(): ReactElement {
  return (
    <section className="empty-state">
      <div className="empty-state-art" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <h2 className="empty-state-title">Your sessions will show here</h2>
      <p className="empty-state-text">
        When the agent runs a task, its timeline appears in this space: every turn and step, the screenshots it
        looked at, and which of them it folded away or recalled.
      </p>
    </section>
  );
}

const PLATFORM_NAMES: Partial<Record<string, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

function platformName(platform: string): string {
  return PLATFORM_NAMES[platform] ?? platform;
}
