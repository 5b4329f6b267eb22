/**
 * Content-addressed image files. A file is named by the sha256 of its bytes (`ab/abcdef….png`) and lives
 * either in `blobs/` (hot: what the next request may send) or in `cold-storage/` (folded out of the
 * context, kept until the retention sweep). Writes go temp file → fsync → rename → fsync of the folder,
 * so a crash leaves either the whole file or none at the final path; every read re-checks the hash, so
 * a damaged file is reported as unavailable instead of being shown or sent to a model.
 *
 * A mirror of the team store (issue 29) has the rows of sessions other machines ran but not their pixels: its
 * store is given a RemoteBlobs, and a blob missing here is fetched from it, checked against its sha256 and
 * kept in cold-storage/, so the next read is local.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { extensionForMime } from './mime-types.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files.js';

export type BlobLocation = 'blobs' | 'cold';

export interface BlobStoreDirectories {
  blobsDirectory: string;
  coldStorageDirectory: string;
}

/**
 * Test seams to prove crash safety for real: `beforeRename` runs after the temp file is written and
 * fsynced and before it is renamed into place. A child process can be killed there, or the hook can throw.
 */
export interface BlobStoreFaults {
  beforeRename?: (temporaryPath: string, finalPath: string) => void | Promise<void>;
}

/** Where blobs this home lacks come from (the team store's S3 bucket, for a mirror home). */
export interface RemoteBlobs {
  /** The bytes stored under this hash, or undefined when the remote has none; throws when it cannot be asked. */
  fetch(sha256: string, mime: string): Promise<Uint8Array | undefined>;
}

export interface BlobWriteResult {
  sha256: string;
  byteSize: number;
}

export type BlobReadResult =
  | { status: 'ok'; bytes: Buffer; location: BlobLocation }
  | { status: 'unavailable'; reason: 'missing' | 'corrupt'; message: string };

export type BlobArchiveOutcome = 'archived' | 'already-archived' | 'missing';

export interface ReconcileResult {
  temporaryFilesRemoved: number;
  /** Whole files no image row names (see `reconcile`'s isReferenced). */
  unreferencedFilesRemoved: number;
}

export interface ReconcileOptions {
  graceMs?: number;
  now?: Date;
  /**
   * Whether an image row names this sha256. When given, files no row names are removed too: a process
   * that died between writing an image's file and inserting its row leaves one. Removed, not adopted:
   * nothing can refer to it (messages and steps name rows, and the row's size, turn and source are gone
   * with the process), so keeping it would only leak disk.
   */
  isReferenced?: (sha256: string) => boolean;
}

/** A blob could not be stored; the message says why in words (disk full, permission denied). */
export class BlobWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'BlobWriteError';
  }
}

/** A blob's name: the lowercase hex sha256 of its bytes. Also what keeps a crafted name from becoming a path or a key. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
const TEMPORARY_SUFFIX = '.tmp';
/** A temp file younger than this may belong to a write in progress in another process. */
const DEFAULT_TEMPORARY_FILE_GRACE_MS = 60_000;

export class BlobStore {
  readonly blobsDirectory: string;
  readonly coldStorageDirectory: string;
  private readonly faults: BlobStoreFaults;
  private readonly remote: RemoteBlobs | undefined;

  constructor(directories: BlobStoreDirectories, faults: BlobStoreFaults = {}, remote?: RemoteBlobs) {
    this.blobsDirectory = directories.blobsDirectory;
    this.coldStorageDirectory = directories.coldStorageDirectory;
    this.faults = faults;
    this.remote = remote;
  }

  /** The path a blob has (or would have) in the given place. */
  pathFor(location: BlobLocation, sha256: string, mime: string): string {
    assertSha256(sha256);
    const root = location === 'blobs' ? this.blobsDirectory : this.coldStorageDirectory;
    return join(root, sha256.slice(0, 2), `${sha256}.${extensionForMime(mime)}`);
  }

  /** Stores bytes in blobs/ and returns their address. An intact identical file is reused as is. */
  async write(bytes: Uint8Array, mime: string): Promise<BlobWriteResult> {
    const sha256 = sha256Of(bytes);
    const result = { sha256, byteSize: bytes.byteLength };
    if ((await hashOfFile(this.pathFor('blobs', sha256, mime))) === sha256) return result;
    await this.storeDurably('blobs', sha256, bytes, mime);
    return result;
  }

  /**
   * Reads a blob from blobs/ or, failing that, cold-storage/, checking its hash; a blob in neither comes from
   * the remote, when there is one. Never throws for a bad file or a failing remote.
   */
  async read(sha256: string, mime: string): Promise<BlobReadResult> {
    let corruptPath: string | undefined;
    for (const location of ['blobs', 'cold'] as const) {
      const path = this.pathFor(location, sha256, mime);
      const bytes = await readIfPresent(path);
      if (bytes === undefined) continue;
      if (sha256Of(bytes) === sha256) return { status: 'ok', bytes, location };
      corruptPath ??= path;
    }
    if (corruptPath !== undefined) {
      return {
        status: 'unavailable',
        reason: 'corrupt',
        message: `The image file ${corruptPath} is damaged: its contents no longer match their sha256.`,
      };
    }
    if (this.remote !== undefined) return this.readRemote(this.remote, sha256, mime);
    return {
      status: 'unavailable',
      reason: 'missing',
      message: `The image file ${sha256.slice(0, 12)}… is in neither ${this.blobsDirectory} nor ${this.coldStorageDirectory}.`,
    };
  }

  /** Where a blob's file currently is (blobs/ first), without checking its contents. */
  async locate(sha256: string, mime: string): Promise<BlobLocation | undefined> {
    for (const location of ['blobs', 'cold'] as const) {
      if (await fileExists(this.pathFor(location, sha256, mime))) return location;
    }
    return undefined;
  }

  /** Moves a blob from blobs/ to cold-storage/ by rename (atomic on one filesystem). Idempotent. */
  async archive(sha256: string, mime: string): Promise<BlobArchiveOutcome> {
    const hotPath = this.pathFor('blobs', sha256, mime);
    const coldPath = this.pathFor('cold', sha256, mime);
    if (!(await fileExists(hotPath))) return (await fileExists(coldPath)) ? 'already-archived' : 'missing';
    const coldFolder = join(this.coldStorageDirectory, sha256.slice(0, 2));
    await mkdir(coldFolder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    try {
      await rename(hotPath, coldPath);
    } catch (error) {
      if (errorCode(error) !== 'EXDEV') throw error;
      await this.moveAcrossDevices(hotPath, coldPath);
    }
    await syncFolder(coldFolder);
    await syncFolder(join(this.blobsDirectory, sha256.slice(0, 2)));
    return 'archived';
  }

  /** Deletes a blob's cold copy. Returns whether a file was removed. */
  async removeCold(sha256: string, mime: string): Promise<boolean> {
    return unlinkIfPresent(this.pathFor('cold', sha256, mime));
  }

  /**
   * Deletes a blob wherever it is, hot and cold. Returns how many files were removed (0 to 2): one already
   * gone (purged by retention, say) is what the caller wanted anyway. Only for a blob no row names any more.
   */
  async remove(sha256: string, mime: string): Promise<number> {
    let removed = 0;
    for (const location of ['blobs', 'cold'] as const) {
      if (await unlinkIfPresent(this.pathFor(location, sha256, mime))) removed += 1;
    }
    return removed;
  }

  /**
   * Removes temp files left by writes that crashed before their rename, and (with `isReferenced`) files no
   * row names. Files younger than the grace period are kept, because they may belong to a write still
   * running in another process (its row not inserted yet).
   */
  async reconcile(options: ReconcileOptions = {}): Promise<ReconcileResult> {
    const graceMs = options.graceMs ?? DEFAULT_TEMPORARY_FILE_GRACE_MS;
    const now = (options.now ?? new Date()).getTime();
    const result: ReconcileResult = { temporaryFilesRemoved: 0, unreferencedFilesRemoved: 0 };
    for (const root of [this.blobsDirectory, this.coldStorageDirectory]) {
      for (const path of await filesUnder(root)) {
        const name = basename(path);
        const temporary = name.endsWith(TEMPORARY_SUFFIX);
        const sha256 = name.split('.')[0] ?? '';
        const unreferenced = !temporary && options.isReferenced !== undefined && SHA256_PATTERN.test(sha256) && !options.isReferenced(sha256);
        if (!temporary && !unreferenced) continue;
        const info = await stat(path).catch(() => undefined);
        if (info === undefined || now - info.mtimeMs < graceMs) continue;
        if (!(await unlinkIfPresent(path))) continue;
        if (temporary) result.temporaryFilesRemoved += 1;
        else result.unreferencedFilesRemoved += 1;
      }
    }
    return result;
  }

  /**
   * Fetches a blob this home lacks and keeps it in cold-storage/: a copy of what the remote holds, not pixels
   * the next request needs hot. Bytes whose hash differs are refused and not kept, so a wrong answer is never
   * shown, and is asked again next time rather than cached.
   */
  private async readRemote(remote: RemoteBlobs, sha256: string, mime: string): Promise<BlobReadResult> {
    const name = `${sha256.slice(0, 12)}…`;
    let fetched: Uint8Array | undefined;
    try {
      fetched = await remote.fetch(sha256, mime);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { status: 'unavailable', reason: 'missing', message: `The image file ${name} is not in this home, and fetching it from the team store failed: ${reason}` };
    }
    if (fetched === undefined) {
      return { status: 'unavailable', reason: 'missing', message: `The image file ${name} is neither in this home nor in the team store.` };
    }
    const bytes = Buffer.from(fetched.buffer, fetched.byteOffset, fetched.byteLength);
    if (sha256Of(bytes) !== sha256) {
      return {
        status: 'unavailable',
        reason: 'corrupt',
        message: `The team store returned damaged bytes for the image file ${name}: they do not match its sha256.`,
      };
    }
    try {
      await this.storeDurably('cold', sha256, bytes, mime);
    } catch {
      // Only the cache failed (a full disk, say): the bytes are checked and this read can show them; the next
      // read fetches them again.
    }
    return { status: 'ok', bytes, location: 'cold' };
  }

  /** temp file → fsync → rename → fsync of the folder: a crash leaves the whole file or none at its final path. */
  private async storeDurably(location: BlobLocation, sha256: string, bytes: Uint8Array, mime: string): Promise<void> {
    const finalPath = this.pathFor(location, sha256, mime);
    const root = location === 'blobs' ? this.blobsDirectory : this.coldStorageDirectory;
    const folder = join(root, sha256.slice(0, 2));
    const temporaryPath = `${finalPath}.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`;
    try {
      await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      await writeDurably(temporaryPath, bytes);
      await this.faults.beforeRename?.(temporaryPath, finalPath);
      await rename(temporaryPath, finalPath);
      await syncFolder(folder);
    } catch (error) {
      await unlinkIfPresent(temporaryPath);
      throw new BlobWriteError(`Could not store an image in ${root}: ${describeFsError(error)}`, errorCode(error));
    }
  }

  /** rename() cannot cross filesystems: copy to a temp file beside the target, fsync, rename, then unlink. */
  private async moveAcrossDevices(fromPath: string, toPath: string): Promise<void> {
    const temporaryPath = `${toPath}.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`;
    try {
      await copyFile(fromPath, temporaryPath);
      const handle = await open(temporaryPath, 'r+');
      try {
        // A copy keeps the original's mode, which a file from an older home has as 644.
        if (process.platform !== 'win32') await handle.chmod(PRIVATE_FILE_MODE);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporaryPath, toPath);
    } catch (error) {
      await unlinkIfPresent(temporaryPath);
      throw error;
    }
    await unlink(fromPath);
  }
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function assertSha256(sha256: string): void {
  // Also keeps a crafted "hash" from naming a path outside the store.
  if (!SHA256_PATTERN.test(sha256)) throw new Error(`Not a sha256 hex digest: ${JSON.stringify(sha256)}`);
}

async function writeDurably(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename durable by syncing the folder entry. Windows cannot open folders for this; NTFS journals it. */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function hashOfFile(path: string): Promise<string | undefined> {
  const bytes = await readIfPresent(path);
  return bytes === undefined ? undefined : sha256Of(bytes);
}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'EISDIR') return undefined;
    throw error;
  }
}

async function fileExists(path: string): Promise<boolean> {
  const info = await stat(path).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  return info?.isFile() ?? false;
}

async function unlinkIfPresent(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/** The files in the store's two-character folders. */
async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  const folders = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory()) continue;
    const entries = await readdir(join(root, folder.name), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isFile()) found.push(join(root, folder.name, entry.name));
    }
  }
  return found;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describeFsError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  switch (errorCode(error)) {
    case 'ENOSPC':
      return `the disk is full (ENOSPC). Free some space and retry. (${message})`;
    case 'EDQUOT':
      return `the disk quota is exhausted (EDQUOT). (${message})`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${errorCode(error)}). Check that the folder is writable. (${message})`;
    case 'EROFS':
      return `the filesystem is read-only (EROFS). (${message})`;
    default:
      return message;
  }
}
