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
import { loadCliConfig } from '../cli-config.js';
import { packageRoots, packageVersion } from '../package-info.js';
import { openCliRuntime } from '../open-cli-runtime.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';

export interface TimelineOptions {
  /** 0 picks a free port. */
  port: number;
  open?: boolean | undefined;
}

export async function serveTimeline(invocation: CliInvocation, command: Command, options: TimelineOptions): Promise<void> {
  const { io } = invocation;
  const rendererDirectory = findRendererDirectory(io.env);
  const version = packageVersion();
  const loaded = loadCliConfig(command, io);
  const runtime = await openCliRuntime(loaded);
  const service = createAppService({
    storage: runtime.storage,
    config: loaded.config,
    configSources: loaded.sources,
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
    }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (code === 'EADDRINUSE') throw new UserError(`--port ${options.port} is in use; pick another or leave --port out for a free one.`, EXIT.usage);
      if (code === 'EACCES') throw new UserError(`--port ${options.port} needs privileges; pick a port above 1023.`, EXIT.usage);
      throw error;
    });
    io.stdout(`${server.url}\n`);
    io.stderr(`Sightline timeline for ${loaded.home.root} on 127.0.0.1:${server.port}. Keep the URL private: its token opens the API. Press Ctrl+C to stop.\n`);
    if (options.open === true) openInBrowser(server.url, io.stderr);
    await untilInterrupted();
    io.stderr('stopping the timeline\n');
    await service.close();
    await server.close();
  } finally {
    await service.close();
    runtime.close();
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
