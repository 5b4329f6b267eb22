/**
 * The storage layer's public surface: what the layers above import. The database connection is not part
 * of it: the layers above use repositories and named operations, never SQL.
 */
export { openStorage, type Storage, type StorageOptions, type StoragePaths } from './storage.js';
export type { Transaction, TransactionOptions } from './transaction.js';
export type { SessionDeletionResult } from './session-deletion.js';
export {
  inspectDatabase,
  type DatabaseInspection,
  SCHEMA_VERSION,
  DatabaseOpenError,
  DatabaseVersionError,
} from './database.js';
export { chooseSqliteBinding, ElectronBindingMissingError, type RuntimeSurroundings } from './sqlite-binding.js';
export { describeStorageFailure, keepAndMoveAsideAdvice, storageSqliteCode } from './storage-failures.js';
export { refuseLostDatabase, type DatabaseSurroundings } from './lost-database.js';
export {
  BlobStore,
  BlobWriteError,
  sha256Of,
  SHA256_PATTERN,
  type BlobLocation,
  type BlobReadResult,
  type BlobStoreFaults,
  type BlobWriteResult,
  type RemoteBlobs,
} from './blob-store.js';
export type { Clock } from './time.js';
export { modeOpenToOthers } from './private-files.js';
export { modelToolMemoryAt, MODEL_TOOLS_FILE_NAME, type ComputerToolMemory, type RememberedComputerTool } from './model-tool-memory.js';
export type { RedactStoredText } from './stored-text.js';
export { extensionForMime } from './mime-types.js';
export { GeneratedMediaStore, type StoredMedia } from './generated-media-store.js';
export * from './repositories/sessions.js';
export * from './repositories/turns.js';
export * from './repositories/messages.js';
export * from './repositories/images.js';
export * from './repositories/pins.js';
export * from './repositories/steps.js';
export * from './repositories/search-reports.js';
export * from './repositories/injections.js';
export * from './repositories/compactions.js';
export {
  checkedReplicatedRow,
  REPLICATED_TABLES,
  ReplicationRepository,
  type AppliedSessions,
  type BlobRef,
  type ReplicatedTable,
  type ReplicatedTableSpec,
  type Row,
  type RowValue,
  type SessionRows,
  type SkippedSession,
} from './replication.js';
