/**
 * Pictures a person attaches (issue 16): PNG, JPEG, WebP and GIF (its first frame) pass, with the type their
 * bytes show; an empty, too large, damaged or non-picture file is refused with its name and the reason, and
 * `--image` files are read and refused the same way, naming the path as typed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES, MAX_PICTURES_PER_TASK, PictureAttachmentSchema } from '../../src/shared/pictures.js';
import { checkAttachedPictures, checkPicture, requestWithPictures } from '../../src/main/perception/attached-pictures.js';
import { readPictureFiles } from '../../src/main/cli/run/picture-files.js';
import { UserError } from '../../src/main/cli/io.js';
import { makePng } from '../helpers/seed.js';

/** Two frames of different sizes' worth: a 30×20 red frame over a 30×20 blue one. */
async function twoFrameGif(): Promise<Buffer> {
  const frame = (red: number) => sharp({ create: { width: 30, height: 20, channels: 4, background: { r: red, g: 0, b: 255 - red, alpha: 1 } } }).raw().toBuffer();
  const frames = Buffer.concat([await frame(255), await frame(0)]);
  return sharp(frames, { raw: { width: 30, height: 40, channels: 4, pageHeight: 20 } }).gif().toBuffer();
}

describe('checkPicture', () => {
  it('passes PNG, JPEG, WebP and GIF with the type their bytes show and their first frame size, bytes unchanged', async () => {
    const png = await makePng({ width: 40, height: 30, seed: 3 });
    const jpeg = await sharp(png).jpeg().toBuffer();
    const webp = await sharp(png).webp({ lossless: true }).toBuffer();
    const gif = await twoFrameGif();
    expect(await checkPicture('a.png', png)).toMatchObject({ name: 'a.png', mime: 'image/png', width: 40, height: 30 });
    expect(await checkPicture('b.jpg', jpeg)).toMatchObject({ mime: 'image/jpeg', width: 40, height: 30 });
    expect(await checkPicture('c.webp', webp)).toMatchObject({ mime: 'image/webp', width: 40, height: 30 });
    const checkedGif = await checkPicture('d.gif', gif);
    expect(checkedGif).toMatchObject({ mime: 'image/gif', width: 30, height: 20 });
    expect(checkedGif.bytes.equals(gif)).toBe(true);
    // A name that lies about the type does not matter: the bytes decide.
    expect((await checkPicture('really-a-jpeg.png', jpeg)).mime).toBe('image/jpeg');
  });

  it('refuses an empty, too large, damaged or non-picture file with its name and the reason', async () => {
    const png = await makePng({ width: 40, height: 30 });
    await expect(checkPicture('empty.png', Buffer.alloc(0))).rejects.toThrow('empty.png: is empty');
    await expect(checkPicture('huge.png', Buffer.alloc(MAX_PICTURE_BYTES + 1))).rejects.toThrow(`huge.png: is too large (${MAX_PICTURE_BYTES + 1} bytes`);
    await expect(checkPicture('notes.txt', Buffer.from('just some words\n'))).rejects.toThrow('notes.txt: is not a picture (expected PNG, JPEG, WebP or GIF)');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await expect(checkPicture('drawing.svg', svg)).rejects.toThrow('drawing.svg: is SVG, not PNG, JPEG, WebP or GIF');
    await expect(checkPicture('cut.png', png.subarray(0, png.length - 20))).rejects.toThrow(/cut\.png: cannot be read: it is damaged or cut short/);
    // Large enough that the header survives the cut and only the pixels are missing.
    const jpeg = await sharp(await makePng({ width: 400, height: 300, seed: 4 })).jpeg().toBuffer();
    await expect(checkPicture('cut.jpg', jpeg.subarray(0, Math.floor(jpeg.length * 0.75)))).rejects.toThrow(/cut\.jpg: cannot be read/);
  });

  it('refuses a picture with more pixels than the limit, from its header alone', async () => {
    const wide = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(wide.byteLength).toBeLessThan(MAX_PICTURE_BYTES);
    await expect(checkPicture('wide.png', wide)).rejects.toThrow('wide.png: is too large (8000×6000 pixels');
  });

  it('checks the app API form (base64 with a name) and makes the turn request: the task, then each picture', async () => {
    const png = await makePng({ width: 40, height: 30 });
    const attachment = PictureAttachmentSchema.parse({ name: 'screen.png', mime: 'image/png', dataBase64: png.toString('base64') });
    const [checked] = await checkAttachedPictures([attachment]);
    expect(requestWithPictures('What is this?', [checked!])).toEqual({
      role: 'user',
      parts: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', mime: 'image/png', data: png.toString('base64'), width: 40, height: 30 },
      ],
    });
    expect(requestWithPictures('Only words', [])).toEqual({ role: 'user', parts: [{ type: 'text', text: 'Only words' }] });
    expect(PictureAttachmentSchema.safeParse({ name: 'x.tiff', mime: 'image/tiff', dataBase64: 'AAAA' }).success).toBe(false);
    expect(PictureAttachmentSchema.safeParse({ name: 'x.png', mime: 'image/png', dataBase64: 'data:image/png;base64,AAAA' }).success).toBe(false);
  });
});

describe('--image files', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'sightline-pictures-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  async function refusal(files: string[]): Promise<UserError> {
    const error = await readPictureFiles(files, folder).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(2);
    return error as UserError;
  }

  it('reads each file relative to the working folder, in order', async () => {
    writeFileSync(join(folder, 'one.png'), await makePng({ width: 40, height: 30, seed: 1 }));
    writeFileSync(join(folder, 'two.gif'), await twoFrameGif());
    const pictures = await readPictureFiles(['one.png', 'two.gif'], folder);
    expect(pictures.map((picture) => [picture.name, picture.mime])).toEqual([
      ['one.png', 'image/png'],
      ['two.gif', 'image/gif'],
    ]);
    expect(await readPictureFiles(undefined, folder)).toEqual([]);
  });

  it('refuses a missing file, a folder, a too large file, a non-picture and too many pictures, naming the path and the reason', async () => {
    writeFileSync(join(folder, 'words.png'), 'not a picture at all');
    writeFileSync(join(folder, 'big.png'), Buffer.alloc(MAX_PICTURE_BYTES + 1));
    mkdirSync(join(folder, 'shots'));
    expect((await refusal(['missing.png'])).message).toBe('--image: missing.png: no such file.');
    expect((await refusal(['shots'])).message).toBe('--image: shots: is a folder, not a picture.');
    expect((await refusal(['big.png'])).message).toBe(`--image: big.png: is too large (${MAX_PICTURE_BYTES + 1} bytes; at most ${MAX_PICTURE_BYTES}).`);
    expect((await refusal(['words.png'])).message).toBe('--image: words.png: is not a picture (expected PNG, JPEG, WebP or GIF).');
    const many = Array.from({ length: MAX_PICTURES_PER_TASK + 1 }, () => 'words.png');
    expect((await refusal(many)).message).toBe(`--image: at most ${MAX_PICTURES_PER_TASK} pictures per task (got ${MAX_PICTURES_PER_TASK + 1}).`);
  });
});
