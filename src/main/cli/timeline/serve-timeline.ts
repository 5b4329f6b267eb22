/**
 * What `sightline timeline` does: opens the home's runtime, builds the app service (storage, runs, events),
 * serves it with the built renderer on 127.0.0.1, prints the URL with its token, and waits for Ctrl+C (or
 * SIGTERM), then stops any run it started, closes the server and the database.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { createAppService } from '../../api/app-service.js';
import { createDesktopPermissions, TERMINAL_GRANTEE } from '../../app/permissions/index.js';
import { startTimelineServer } from '../../api/http/http-server.js';
import { parsePublicOrigin, type PublicOrigin } from '../../api/http/http-request-guard.js';
import { loadCliConfig } from '../cli-config.js';
import { packageRoots, packageVersion } from '../package-info.js';
import { openCliRuntime } from '../open-cli-runtime.js';
import { redactingWriter } from '../run/secrets.js';
import { openTeamReader, skippedSessionLines } from '../team/team-reader.js';
import { teamAddresses, teamSecrets, type TeamAddresses, type TeamStoreOptions } from '../team/team-store-options.js';
import type { CliConfig } from '../cli-config.js';
import type { SightlineHome } from '../../config/home.js';
import type { Storage } from '../../storage/index.js';
import { redactorOf } from '../../../shared/secret-redaction.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';

export interface TimelineOptions extends TeamStoreOptions {
  /** 0 picks a free port. */
  port: number;
  open?: boolean | undefined;
  /** Where a reverse proxy serves it (docs/teams.md). */
  publicOrigin?: string | undefined;
}

/** How often a team timeline asks the store for new rows: a worker ships a step within about this long of its landing. */
const TEAM_PULL_MS = 1_000;

export async function serveTimeline(invocation: CliInvocation, command: Command, options: TimelineOptions): Promise<void> {
  const { io } = invocation;
  const rendererDirectory = findRendererDirectory(io.env);
  const version = packageVersion();
  const loaded = loadCliConfig(command, io);
  const team = teamAddresses(options, io.env);
  const publicOrigin = options.publicOrigin === undefined ? undefined : publicOriginOf(options.publicOrigin);
  if (publicOrigin !== undefined && options.port === 0) {
    throw new UserError('--public-origin needs --port: the reverse proxy forwards to a port it knows.', EXIT.usage);
  }
  // A team timeline reads the store's mirror and runs nothing; a home's timeline opens the home with its repairs.
  const source = team === undefined ? await homeSource(loaded) : await teamSource(loaded.home, team, io);
  const service = createAppService({
    storage: source.storage,
    readOnly: source.readOnly,
    config: loaded.config,
    configSources: loaded.sources,
    home: loaded.home.root,
    env: io.env,
    appInfo: () => ({ version, platform: process.platform }),
    // Only what the environment tells (Wayland, DISPLAY): a command-line process cannot ask macOS.
    permissions: createDesktopPermissions({ probe: { platform: process.platform, env: io.env, grantee: TERMINAL_GRANTEE } }),
  });
  try {
    const server = await startTimelineServer({
      implementation: service.implementation,
      events: service.events,
      rendererDirectory,
      port: options.port,
      dispatch: service.dispatch,
      publicOrigin,
    }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (code === 'EADDRINUSE') throw new UserError(`--port ${options.port} is in use; pick another or leave --port out for a free one.`, EXIT.usage);
      if (code === 'EACCES') throw new UserError(`--port ${options.port} needs privileges; pick a port above 1023.`, EXIT.usage);
      throw error;
    });
    io.stdout(`${server.url}\n`);
    if (server.publicUrl !== undefined) io.stdout(`${server.publicUrl}\n`);
    io.stderr(`Sightline timeline for ${source.name} on 127.0.0.1:${server.port}. Keep the URL private: its token opens the API. Press Ctrl+C to stop.\n`);
    if (options.open === true) openInBrowser(server.url, io.stderr);
    const following = source.follow?.((sessionIds) => service.events.publish({ type: 'store-changed', at: Date.now(), sessionIds }));
    await untilInterrupted();
    following?.stop();
    io.stderr('stopping the timeline\n');
    await service.close();
    await server.close();
  } finally {
    await service.close();
    await source.close();
  }
}

interface TimelineSource {
  storage: Storage;
  /** For the startup line: the home's folder or the store's shown URL. */
  name: string;
  readOnly?: string;
  /** Keeps the storage current from elsewhere, calling back with the sessions that changed. */
  follow?(changed: (sessionIds: string[]) => void): { stop(): void };
  close(): Promise<void>;
}

async function homeSource(loaded: CliConfig): Promise<TimelineSource> {
  const runtime = await openCliRuntime(loaded);
  return { storage: runtime.storage, name: loaded.home.root, close: async () => runtime.close() };
}

async function teamSource(home: SightlineHome, team: TeamAddresses, io: CliInvocation['io']): Promise<TimelineSource> {
  const stderr = redactingWriter(io.stderr, redactorOf(teamSecrets(team, io.env)));
  const mirror = await openTeamReader(home, team, io.env, stderr);
  return {
    storage: mirror.storage,
    name: `the team store ${team.store.shown} (screenshots in ${team.blobs.shown})`,
    readOnly: `This timeline shows the team store ${team.store.shown}, read-only: runs, pins and deletions happen on the machine that ran the session.`,
    follow: (changed) => {
      let failing: string | undefined;
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      const tick = async (): Promise<void> => {
        try {
          const pulled = await mirror.pull();
          if (failing !== undefined) stderr('team store: reachable again\n');
          failing = undefined;
          for (const line of skippedSessionLines(pulled.skipped)) stderr(line);
          if (pulled.sessionIds.length > 0) changed(pulled.sessionIds);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          // Said once per outage; the timeline keeps showing what it has and keeps asking.
          if (message !== failing) stderr(`team store: ${message}; showing what was pulled before, asking again\n`);
          failing = message;
        }
        if (!stopped) timer = setTimeout(() => void tick(), TEAM_PULL_MS);
      };
      timer = setTimeout(() => void tick(), TEAM_PULL_MS);
      return {
        stop: () => {
          stopped = true;
          clearTimeout(timer);
        },
      };
    },
    close: () => mirror.close(),
  };
}

function publicOriginOf(text: string): PublicOrigin {
  try {
    return parsePublicOrigin(text);
  } catch (error) {
    throw new UserError(`--public-origin: ${(error as Error).message}.`, EXIT.usage);
  }
}

/**
 * The built renderer: SIGHTLINE_RENDERER_DIR when set (packagers, tests), else out/renderer of the folder
 * this code runs from (src/main/cli/timeline from a checkout, out/main once built).
 */
function findRendererDirectory(env: Record<string, string | undefined>): string {
  const override = env['SIGHTLINE_RENDERER_DIR'];
  const candidates = override ? [resolve(override)] : packageRoots().map((root) => join(root, 'out', 'renderer'));
  const found = candidates.find((directory) => existsSync(join(directory, 'index.html')));
  if (found !== undefined) return found;
  throw new UserError(
    `the timeline UI is not built (no index.html in ${candidates.join(' or ')}). Run \`npm run build\` in the Sightline folder first.`,
    EXIT.usage,
  );
}

function untilInterrupted(): Promise<void> {
  return new Promise((resolveInterrupt) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveInterrupt();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** The OS's own opener; the URL is ours (127.0.0.1 and a token), never a user-supplied string. */
function openInBrowser(url: string, stderr: (text: string) => void): void {
  const [command, ...commandArguments] =
    process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  const child = spawn(command ?? 'xdg-open', commandArguments, { detached: true, stdio: 'ignore' });
  child.on('error', () => stderr(`could not open a browser; open ${url.split('#')[0]} with the printed URL yourself\n`));
  child.unref();
}
