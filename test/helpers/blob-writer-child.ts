/**
 * A child process for the crash test: writes one blob and, once its temp file is written and fsynced,
 * announces the temp path on stdout and waits to be killed, so the parent can SIGKILL it between the
 * temp write and the rename, the window a power cut or crash would hit.
 *
 * Usage: node --import tsx blob-writer-child.ts <blobsDirectory> <coldStorageDirectory> <payloadFile>
 */
import { readFileSync } from 'node:fs';
import { BlobStore } from '../../src/main/storage/blob-store.js';

const [blobsDirectory, coldStorageDirectory, payloadFile] = process.argv.slice(2);
if (blobsDirectory === undefined || coldStorageDirectory === undefined || payloadFile === undefined) {
  process.stderr.write('usage: blob-writer-child <blobs> <cold> <payload>\n');
  process.exit(2);
}

const store = new BlobStore(
  { blobsDirectory, coldStorageDirectory },
  {
    beforeRename: async (temporaryPath, finalPath) => {
      process.stdout.write(`${JSON.stringify({ paused: true, temporaryPath, finalPath })}\n`);
      // Wait for SIGKILL; never resolve, and keep the event loop alive.
      await new Promise<never>(() => setInterval(() => undefined, 60_000));
    },
  },
);

await store.write(readFileSync(payloadFile), 'image/png');
process.stdout.write(`${JSON.stringify({ paused: false })}\n`);
