/** The New task form's pictures before they are sent (issue 16): refused early with the reason, read to base64 unchanged. */
import { describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES, MAX_PICTURES_PER_TASK, PictureAttachmentSchema } from '../../src/shared/pictures.js';
import { attachmentsOf, pictureRefusal, previewUrl, readPictureDraft } from '../../src/renderer/src/pictures/picture-drafts.js';

describe('picture drafts', () => {
  it('refuses a file of another type, an empty or too large one, and one past the limit, naming it', () => {
    expect(pictureRefusal({ name: 'shot.png', type: 'image/png', size: 1000 }, 0)).toBeUndefined();
    expect(pictureRefusal({ name: 'scan.tiff', type: 'image/tiff', size: 1000 }, 0)).toBe('scan.tiff: not a picture Sightline accepts (PNG, JPEG, WebP or GIF).');
    expect(pictureRefusal({ name: 'empty.png', type: 'image/png', size: 0 }, 0)).toBe('empty.png: the file is empty.');
    expect(pictureRefusal({ name: 'huge.jpg', type: 'image/jpeg', size: MAX_PICTURE_BYTES + 1 }, 0)).toBe('huge.jpg: too large (8.0 MB; at most 8.0 MB).');
    expect(pictureRefusal({ name: 'fifth.gif', type: 'image/gif', size: 10 }, MAX_PICTURES_PER_TASK)).toBe(`fifth.gif: a task takes at most ${MAX_PICTURES_PER_TASK} pictures.`);
    expect(pictureRefusal({ name: '', type: 'text/plain', size: 10 }, 0)).toBe('pasted text/plain: not a picture Sightline accepts (PNG, JPEG, WebP or GIF).');
  });

  it('reads a file to base64 unchanged, in the shape startRun takes, with a preview URL', async () => {
    const bytes = new Uint8Array(100_000).map((_, index) => (index * 7) % 256);
    const draft = await readPictureDraft(new File([bytes], 'pattern.webp', { type: 'image/webp' }));
    expect(draft).toMatchObject({ name: 'pattern.webp', mime: 'image/webp', byteSize: 100_000 });
    expect(Buffer.from(draft.dataBase64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    const [attachment] = attachmentsOf([draft]);
    expect(PictureAttachmentSchema.parse(attachment)).toEqual({ name: 'pattern.webp', mime: 'image/webp', dataBase64: draft.dataBase64 });
    expect(previewUrl(draft).startsWith('data:image/webp;base64,')).toBe(true);
    const other = await readPictureDraft(new File([bytes], 'pattern.webp', { type: 'image/webp' }));
    expect(other.key).not.toBe(draft.key);
  });
});
