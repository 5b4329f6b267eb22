/**
 * What "the database is consistent" means for the reliability tests, as one list of problems (empty when
 * all is well): SQLite's own integrity check, every image row's file present (in blobs/ or cold storage)
 * with the sha256 it is named by, no image file without a row, no leftover temp file, no turn left
 * running, and every tool call of the model answered by a tool message.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Storage } from '../../src/main/storage/index.js';
import { withRawDatabase, type RawDatabase } from './raw-database.js';

export interface ConsistencyOptions {
  /** Turns still 'running' are fine while a run is in progress; after one, they are a problem. */
  allowRunningTurns?: boolean;
  /** Files without a row are expected until startup reconciliation has run. */
  allowFilesWithoutRows?: boolean;
  /**
   * A process killed between storing the model's reply and answering its calls leaves calls without an
   * answer; the request builder answers them when it renders the history, so after a crash they are fine.
   */
  allowUnansweredToolCalls?: boolean;
}

interface ImageRow {
  id: string;
  sha256: string;
  mime: string;
  purged_at: string | null;
}

/** What the rows say, read raw: the checks must see rows as they are, not as the repositories parse them. */
interface RowFacts {
  integrity: string[];
  imageRows: ImageRow[];
  runningTurns: string[];
  runningSessions: string[];
  sessions: string[];
}

function readRowFacts(database: RawDatabase): RowFacts {
  return {
    integrity: (database.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check),
    imageRows: database.prepare('SELECT id, sha256, mime, purged_at FROM images').all() as ImageRow[],
    runningTurns: database.prepare("SELECT id FROM turns WHERE status = 'running'").pluck().all() as string[],
    runningSessions: database.prepare("SELECT id FROM sessions WHERE status = 'running'").pluck().all() as string[],
    sessions: database.prepare('SELECT id FROM sessions').pluck().all() as string[],
  };
}

export async function storageProblems(storage: Storage, options: ConsistencyOptions = {}): Promise<string[]> {
  const problems: string[] = [];
  const { integrity, imageRows, runningTurns, runningSessions, sessions } = withRawDatabase(storage.paths.databaseFile, readRowFacts);
  if (integrity.join() !== 'ok') problems.push(`integrity_check: ${integrity.join('; ')}`);

  for (const row of imageRows) {
    if (row.purged_at !== null) continue;
    const read = await storage.blobs.read(row.sha256, row.mime);
    if (read.status !== 'ok') problems.push(`image ${row.id}: ${read.reason} (${read.message})`);
  }

  const knownFiles = new Set(imageRows.map((row) => row.sha256));
  for (const root of [storage.blobs.blobsDirectory, storage.blobs.coldStorageDirectory]) {
    for (const file of filesUnder(root)) {
      if (file.endsWith('.tmp')) {
        problems.push(`temp file left behind: ${file}`);
        continue;
      }
      const sha256 = file.split('/').at(-1)!.split('.')[0]!;
      if (!knownFiles.has(sha256) && options.allowFilesWithoutRows !== true) problems.push(`file without a row: ${file}`);
    }
  }

  if (options.allowRunningTurns !== true) {
    for (const id of runningTurns) problems.push(`turn ${id} is still running`);
    for (const id of runningSessions) problems.push(`session ${id} is still marked running`);
  }

  if (options.allowUnansweredToolCalls !== true) problems.push(...unansweredToolCalls(storage, sessions));
  return problems;
}

/** A tool call of the model that no tool message answers: the next request would be invalid. */
function unansweredToolCalls(storage: Storage, sessions: readonly string[]): string[] {
  const problems: string[] = [];
  for (const sessionId of sessions) {
    const messages = storage.messages.listBySession(sessionId).map((record) => record.message);
    const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
    for (const message of messages) {
      if (message.role !== 'assistant') continue;
      for (const call of message.toolCalls) {
        if (!answered.has(call.id)) problems.push(`session ${sessionId}: tool call ${call.id} (${call.name.slice(0, 40)}) has no answer`);
      }
    }
  }
  return problems;
}

function filesUnder(root: string): string[] {
  const found: string[] = [];
  let folders: string[];
  try {
    folders = readdirSync(root);
  } catch {
    return found;
  }
  for (const folder of folders) {
    let entries: string[];
    try {
      entries = readdirSync(join(root, folder));
    } catch {
      continue;
    }
    for (const entry of entries) found.push(join(root, folder, entry));
  }
  return found;
}
