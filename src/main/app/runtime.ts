/**
 * How every front end starts Sightline's core: the CLI, the Electron app and the MCP server open the
 * home's storage through `openRuntime`, so the work that must happen once at start happens in one place,
 * whichever way the app was launched. Startup repairs what an earlier process may have left behind:
 * temp files of blob writes that crashed before their rename, image files whose row was never inserted,
 * turns left running by a process that is gone (ended as stopped), compactions cut short (finished from
 * their journal plan) or never run (their process died before its turn-end hook), and cold files past
 * their retention.
 */
import type { Config } from '../../shared/config.js';
import { secretRedactor } from '../../shared/secret-redaction.js';
import type { SightlineHome } from '../config/home.js';
import { reconcileCompactions, type CompactionReconciliation } from '../context/index.js';
import { openStorage, type RetentionSweepResult, type Storage } from '../storage/index.js';
import { endAbandonedTurns } from './abandoned-turns.js';

export interface RuntimeOptions {
  home: SightlineHome;
  config: Config;
  /** The moment the retention sweep measures ages from; now by default (tests age data with it). */
  now?: Date;
  /**
   * What stored text passes through; the configuration's secret redactor by default. The app passes one
   * that also knows the keys saved in it after start.
   */
  redactStoredText?: (text: string) => string;
  /** The better-sqlite3 build to load: the app passes Electron's; Node's installed one when absent. */
  sqliteBinding?: string | undefined;
}

/** What startup repaired, for doctor-style reporting and tests. */
export interface StartupReport {
  temporaryFilesRemoved: number;
  /** Image files no row names (a process died between writing the file and its row). */
  unreferencedFilesRemoved: number;
  /** Turns left running by a process that is gone, now ended as stopped. */
  abandonedTurnsEnded: string[];
  compactions: CompactionReconciliation;
  retention: RetentionSweepResult;
}

export interface Runtime {
  storage: Storage;
  startup: StartupReport;
  /** Closes the database. Safe to call twice. */
  close(): void;
}

export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const storage = openStorage({
    databaseFile: options.home.databaseFile,
    blobsDirectory: options.home.blobsDirectory,
    coldStorageDirectory: options.home.coldStorageDirectory,
    redactText: options.redactStoredText ?? secretRedactor(options.config),
    sqliteBinding: options.sqliteBinding,
  });
  try {
    const startup = await repairAtStartup(storage, options.config, options.now ?? new Date());
    return { storage, startup, close: () => storage.close() };
  } catch (error) {
    storage.close();
    throw error;
  }
}

async function repairAtStartup(storage: Storage, config: Config, now: Date): Promise<StartupReport> {
  const referenced = new Set([...storage.images.referencedFiles(), ...storage.media.referencedFiles()]);
  const { temporaryFilesRemoved, unreferencedFilesRemoved } = await storage.blobs.reconcile({
    now,
    isReferenced: (sha256) => referenced.has(sha256),
  });
  // Before compaction: an abandoned turn, once ended, is compacted like any other (after the grace period).
  const abandonedTurnsEnded = endAbandonedTurns(storage);
  // Before the sweep: finishing a compaction moves files into cold storage, where the sweep looks.
  const compactions = await reconcileCompactions(storage, { now });
  const retention = await storage.images.sweepRetention({ olderThanDays: config.storage.retentionDays, now });
  return { temporaryFilesRemoved, unreferencedFilesRemoved, abandonedTurnsEnded, compactions, retention };
}
