/**
 * Everything persistent, behind one object: the database with its repositories, and the blob store.
 * Paths come from the caller (the CLI and the app resolve the home folder), so storage knows nothing of
 * configuration and tests point it at temp folders.
 */
import { mkdirSync } from 'node:fs';
import { BlobStore, type BlobStoreFaults } from './blob-store.js';
import { openDatabase, type Database } from './database.js';
import { refuseLostDatabase } from './lost-database.js';
import { CompactionsRepository } from './repositories/compactions.js';
import { ImagesRepository } from './repositories/images.js';
import { InjectionsRepository } from './repositories/injections.js';
import { MessagesRepository } from './repositories/messages.js';
import { SearchReportsRepository } from './repositories/search-reports.js';
import { SessionsRepository } from './repositories/sessions.js';
import { StepsRepository } from './repositories/steps.js';
import { TurnsRepository } from './repositories/turns.js';
import { systemClock, type Clock } from './time.js';

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
}

export interface Storage {
  database: Database;
  sessions: SessionsRepository;
  turns: TurnsRepository;
  messages: MessagesRepository;
  images: ImagesRepository;
  steps: StepsRepository;
  searchReports: SearchReportsRepository;
  injections: InjectionsRepository;
  compactions: CompactionsRepository;
  blobs: BlobStore;
  close: () => void;
}

export function openStorage(options: StorageOptions): Storage {
  const clock = options.clock ?? systemClock;
  refuseLostDatabase(options);
  const database = openDatabase(options.databaseFile);
  try {
    mkdirSync(options.blobsDirectory, { recursive: true });
    mkdirSync(options.coldStorageDirectory, { recursive: true });
    const blobs = new BlobStore(
      { blobsDirectory: options.blobsDirectory, coldStorageDirectory: options.coldStorageDirectory },
      options.blobFaults,
    );
    return {
      database,
      sessions: new SessionsRepository(database, clock),
      turns: new TurnsRepository(database, clock),
      messages: new MessagesRepository(database, clock),
      images: new ImagesRepository(database, blobs, clock),
      steps: new StepsRepository(database, clock),
      searchReports: new SearchReportsRepository(database, clock),
      injections: new InjectionsRepository(database, clock),
      compactions: new CompactionsRepository(database, clock),
      blobs,
      close: () => {
        if (database.open) database.close();
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
