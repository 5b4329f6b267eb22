/**
 * `sightline report`: every flag is checked before anything is read (exit 2), the session is read from the
 * home's database (a missing one is exit 2 with the way to list them), or with --store/--blobs from the team store's
 * mirror, and each file is written whole.
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { Command } from 'commander';
import { parseId } from '../../../shared/ids.js';
import { configuredSecrets, redactorOf } from '../../../shared/secret-redaction.js';
import { REPORT_MAX_BYTES_DEFAULT, REPORT_MAX_BYTES_LIMIT } from '../../../shared/report-model.js';
import { AnimationTooLargeError, buildSessionAnimation, buildSessionReport, NothingToAnimateError, ReportSessionNotFoundError, ReportTooLargeError } from '../../report/index.js';
import { DatabaseOpenError, DatabaseVersionError, openStorage, type Storage } from '../../storage/index.js';
import { loadCliConfig } from '../cli-config.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { outputFile, writeOutputFile } from '../output-files.js';
import { packageVersion } from '../package-info.js';
import { explainStorageFailure } from '../storage-failure-errors.js';
import { readTeamStore } from '../team/team-reader.js';
import { teamAddresses, teamSecrets } from '../team/team-store-options.js';
import type { ReportCommandOptions } from './report-options.js';

export async function writeSessionReport(invocation: CliInvocation, command: Command, idText: string, options: ReportCommandOptions): Promise<void> {
  const { io } = invocation;
  const id = parseId('session', idText);
  if (id === undefined) throw new UserError(`"${idText}" is not a session id (expected ses_ followed by 12 hex digits).`, EXIT.usage);
  if (options.html === undefined && options.gif === undefined) throw new UserError('say what to write: --html FILE, --gif FILE, or both.', EXIT.usage);
  const maxBytes = parseSize(options.maxSize);
  const htmlFile = outputFile('--html', options.html, io.cwd);
  const gifFile = outputFile('--gif', options.gif, io.cwd);
  const format = gifFile === undefined ? undefined : animationFormat(gifFile);
  const loaded = loadCliConfig(command, io);
  const team = teamAddresses(options, io.env);
  const unknown = new UserError(`no session ${id} in ${team === undefined ? loaded.home.root : team.store.shown} (see \`sightline sessions ls\`).`, EXIT.usage);
  if (team === undefined && !existsSync(loaded.home.databaseFile)) throw unknown;
  const redact = redactorOf([...configuredSecrets(loaded.config), ...teamSecrets(team, io.env)]);
  const read = async (storage: Storage): Promise<void> => {
    try {
      if (htmlFile !== undefined) {
        const report = await buildSessionReport(id, { storage, redact, maxBytes, sightlineVersion: packageVersion() });
        writeOutputFile('--html', htmlFile, report.html);
        io.stderr(`wrote ${htmlFile} (${kilobytes(report.bytes)}, ${report.model.frames.length} frames)\n`);
        for (const notice of report.model.notices) io.stderr(`  ${notice.text}\n`);
      }
      if (gifFile !== undefined && format !== undefined) {
        const animation = await buildSessionAnimation(id, { storage, redact, format, maxBytes });
        writeOutputFile('--gif', gifFile, animation.bytes);
        io.stderr(`wrote ${gifFile} (${kilobytes(animation.bytes.byteLength)}, ${animation.frames} frames at ${animation.width}×${animation.height})\n`);
      }
    } catch (error) {
      if (error instanceof ReportSessionNotFoundError) throw unknown;
      if (error instanceof ReportTooLargeError || error instanceof AnimationTooLargeError || error instanceof NothingToAnimateError) throw new UserError(error.message, EXIT.usage);
      throw error;
    }
  };
  if (team === undefined) {
    await withStorage(loaded.home, read);
    return;
  }
  // The team store's session, from its local mirror: frames not yet there come from the bucket as the report reads them.
  await readTeamStore(loaded.home, team, io.env, io.stderr, read);
}

const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };

/** "20MB", "5 mb", "800KB", "1048576": a size in bytes, from 100 KB to 500 MB. */
export function parseSize(text: string | undefined): number {
  if (text === undefined) return REPORT_MAX_BYTES_DEFAULT;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = UNITS[match?.[2]?.toLowerCase() ?? 'x'];
  const bytes = match === null || unit === undefined ? Number.NaN : Math.round(Number(match[1]) * unit);
  if (!Number.isFinite(bytes) || bytes < 100 * 1024 || bytes > REPORT_MAX_BYTES_LIMIT) {
    throw new UserError(`--max-size: expected a size from 100KB to 500MB such as 20MB or 800KB, got ${JSON.stringify(text.slice(0, 40))}.`, EXIT.usage);
  }
  return bytes;
}

function animationFormat(path: string): 'gif' | 'webp' {
  const extension = extname(path).toLowerCase();
  if (extension === '.gif') return 'gif';
  if (extension === '.webp') return 'webp';
  throw new UserError(`--gif: name the file .gif or .webp (an animated WebP is smaller), got ${JSON.stringify(extension || path)}.`, EXIT.usage);
}

function kilobytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

async function withStorage(home: Parameters<typeof openStorage>[0], use: (storage: Storage) => Promise<void>): Promise<void> {
  let storage: Storage;
  try {
    storage = openStorage(home);
  } catch (error) {
    if (error instanceof DatabaseVersionError || error instanceof DatabaseOpenError) throw new UserError(error.message, EXIT.failed);
    throw error;
  }
  try {
    await use(storage);
  } catch (error) {
    throw explainStorageFailure(error, storage.paths);
  } finally {
    storage.close();
  }
}
