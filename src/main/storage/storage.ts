/**
 * Everything persistent, behind one object: the repositories, the blob store, and the operations that span
 * them (a transaction, deleting a session with its files, ending an abandoned turn). The database
 * connection itself stays inside: every statement is prepared here, in src/main/storage, so the schema can
 * change without a search through the other layers.
 * Paths come from the caller (the CLI and the app resolve the home folder), so storage knows nothing of
 * configuration and tests point it at temp folders.
 */
import { BlobStore, type BlobStoreFaults, type RemoteBlobs } from './blob-store.js';
import { endAbandonedTurn } from './abandoned-turn-ending.js';
import { GeneratedMediaStore } from './generated-media-store.js';
import { openDatabase } from './database.js';
import { refuseLostDatabase } from './lost-database.js';
import { CompactionsRepository } from './repositories/compactions.js';
import { ImagesRepository } from './repositories/images.js';
import { InjectionsRepository } from './repositories/injections.js';
import { MessagesRepository } from './repositories/messages.js';
import { PinsRepository } from './repositories/pins.js';
import { ReplicationRepository } from './replication.js';
import { SearchReportsRepository } from './repositories/search-reports.js';
import { SessionsRepository } from './repositories/sessions.js';
import { StepsRepository } from './repositories/steps.js';
import { TurnsRepository, type RunningTurn } from './repositories/turns.js';
import { SessionDeletion, type SessionDeletionResult } from './session-deletion.js';
import { createPrivateFolder, PRIVATE_FOLDER_MODE, restrictToOwner } from './private-files.js';
import { keepText, type RedactStoredText } from './stored-text.js';
import { systemClock, type Clock } from './time.js';
import { transactionOn, type Transaction } from './transaction.js';

export interface StoragePaths {
  databaseFile: string;
  blobsDirectory: string;
  coldStorageDirectory: string;
}

export interface StorageOptions extends StoragePaths {
  /** Where times come from; tests pass a fixed or moving clock to age rows. */
  clock?: Clock;
  /** Test seams of the blob store (see BlobStoreFaults). */
  blobFaults?: BlobStoreFaults;
  /** What every text written to a row passes through: the configured secrets' redactor (see stored-text.ts). */
  redactText?: RedactStoredText;
  /** The better-sqlite3 build to load instead of the installed one (Electron's; see sqlite-binding.ts). */
  sqliteBinding?: string | undefined;
  /**
   * Where a blob this home lacks can be fetched from: the team store's pixels, for a mirror home (issue 29). A
   * fetched blob is checked against its sha256 and kept in cold-storage/ (see BlobStore.read).
   */
  remoteBlobs?: RemoteBlobs | undefined;
}

export interface Storage {
  /** Where the database and the blob folders are (for messages, and for tests that inspect the files). */
  paths: StoragePaths;
  sessions: SessionsRepository;
  turns: TurnsRepository;
  messages: MessagesRepository;
  images: ImagesRepository;
  /** Frames a person pinned: sent whole in every later request of their session. */
  pins: PinsRepository;
  steps: StepsRepository;
  searchReports: SearchReportsRepository;
  injections: InjectionsRepository;
  compactions: CompactionsRepository;
  /** The team store's side of this home: a session's rows to ship, rows pulled back, sessions still to ship. */
  replication: ReplicationRepository;
  /** Images and audio a model generated: bytes in the blob store, ids in assistant messages. */
  media: GeneratedMediaStore;
  blobs: BlobStore;
  /** Several repository calls as one transaction (see Transaction). */
  transaction: Transaction;
  /** Deletes a session's rows, then the image files no other session uses (see session-deletion.ts). */
  deleteSession: (sessionId: string) => Promise<SessionDeletionResult>;
  /** Ends a turn whose process is gone as stopped; its session is idle again unless another turn runs. */
  endAbandonedTurn: (turn: Pick<RunningTurn, 'id' | 'sessionId'>) => void;
  close: () => void;
}

export function openStorage(options: StorageOptions): Storage {
  const clock = options.clock ?? systemClock;
  const redact = options.redactText ?? keepText;
  refuseLostDatabase(options);
  const database = openDatabase(options.databaseFile, { nativeBinding: options.sqliteBinding });
  try {
    for (const folder of [options.blobsDirectory, options.coldStorageDirectory]) {
      createPrivateFolder(folder);
      // Older homes made them 755: closing the folder hides the image files already in it.
      restrictToOwner(folder, PRIVATE_FOLDER_MODE);
    }
    const blobs = new BlobStore(
      { blobsDirectory: options.blobsDirectory, coldStorageDirectory: options.coldStorageDirectory },
      options.blobFaults,
      options.remoteBlobs,
    );
    const sessions = new SessionsRepository(database, clock, redact);
    const turns = new TurnsRepository(database, clock, redact);
    const images = new ImagesRepository(database, blobs, clock, redact);
    const transaction = transactionOn(database);
    const sessionDeletion = new SessionDeletion(database, blobs);
    return {
      paths: {
        databaseFile: options.databaseFile,
        blobsDirectory: options.blobsDirectory,
        coldStorageDirectory: options.coldStorageDirectory,
      },
      sessions,
      turns,
      messages: new MessagesRepository(database, clock, redact),
      images,
      pins: new PinsRepository(database, images, clock),
      steps: new StepsRepository(database, clock, redact),
      searchReports: new SearchReportsRepository(database, clock, redact),
      injections: new InjectionsRepository(database, clock),
      compactions: new CompactionsRepository(database, clock, redact),
      replication: new ReplicationRepository(database, blobs, clock),
      media: new GeneratedMediaStore(database, blobs),
      blobs,
      transaction,
      deleteSession: (sessionId) => sessionDeletion.delete(sessionId),
      endAbandonedTurn: (turn) => endAbandonedTurn({ turns, sessions, transaction }, turn),
      close: () => {
        if (database.open) database.close();
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
