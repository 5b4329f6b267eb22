/**
 * `--image FILE` (repeatable): pictures attached to the turn's request. Every file is read and checked
 * before anything starts (no runtime opened, nothing stored), and a refusal names the flag, the path as
 * typed and the reason, with exit code 2.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MAX_PICTURE_BYTES, MAX_PICTURES_PER_TASK } from '../../../shared/pictures.js';
import { checkPicture, PictureRefusedError, type CheckedPicture } from '../../perception/attached-pictures.js';
import { EXIT, UserError } from '../io.js';

export async function readPictureFiles(files: readonly string[] | undefined, cwd: string): Promise<CheckedPicture[]> {
  if (files === undefined || files.length === 0) return [];
  if (files.length > MAX_PICTURES_PER_TASK) {
    throw new UserError(`--image: at most ${MAX_PICTURES_PER_TASK} pictures per task (got ${files.length}).`, EXIT.usage);
  }
  const pictures: CheckedPicture[] = [];
  for (const file of files) pictures.push(await readPictureFile(file, cwd));
  return pictures;
}

async function readPictureFile(typed: string, cwd: string): Promise<CheckedPicture> {
  const path = resolve(cwd, typed);
  try {
    return await checkPicture(typed, await readBytes(path, typed));
  } catch (error) {
    if (error instanceof PictureRefusedError) throw new UserError(`--image: ${error.message}.`, EXIT.usage);
    throw error;
  }
}

/** The file's bytes; a refusal names the file as it was typed. */
async function readBytes(path: string, typed: string): Promise<Buffer> {
  // The size first: a huge file is refused without reading it.
  const size = await stat(path).then(
    (stats) => (stats.isDirectory() ? 'folder' : stats.size),
    (error: unknown) => {
      throw refusal(typed, error);
    },
  );
  if (size === 'folder') throw new PictureRefusedError(typed, 'is a folder, not a picture');
  if (size > MAX_PICTURE_BYTES) throw new PictureRefusedError(typed, `is too large (${size} bytes; at most ${MAX_PICTURE_BYTES})`);
  try {
    return await readFile(path);
  } catch (error) {
    throw refusal(typed, error);
  }
}

function refusal(typed: string, error: unknown): PictureRefusedError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'cannot be read (permission denied)' : 'cannot be read';
  return new PictureRefusedError(typed, reason);
}
