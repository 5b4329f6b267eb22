/**
 * get_history_image and crop_image take an earlier image by any name it was given, as a model copies it:
 * the `img_…` id in its forms, a folded screenshot's placeholder (caption and all), a user picture's
 * `history_<hash>` name or placeholder, or that hash alone (8 hex digits or more). Names too short,
 * malformed or unknown keep the plain answers; a hash prefix that starts two pictures' hashes says so.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessagePart, TextPart } from '../../src/shared/messages.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { createCropImageTool } from '../../src/main/agent/tools/crop-image-tool.js';
import { createGetHistoryImageTool } from '../../src/main/agent/tools/get-history-image-tool.js';
import { createToolRegistry } from '../../src/main/agent/tools/registry.js';
import type { ToolDefinition } from '../../src/main/agent/tools/tool-definition.js';
import { historyPictureText, placeholderText, ShownImages } from '../../src/main/context/index.js';
import { FIT_EDGE } from '../../src/main/llm/model-profiles.js';
import type { ImageRecord, Storage } from '../../src/main/storage/index.js';
import { makePng } from '../helpers/seed.js';
import { withRawDatabase } from '../helpers/raw-database.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;
let sessionId: string;
let turnId: string;
let screenshot: ImageRecord;
let picture: ImageRecord;
let otherPicture: ImageRecord;
let otherSessionPicture: ImageRecord;

beforeEach(async () => {
  temporary = createTemporaryStorage('sightline-recall-names');
  storage = temporary.storage;
  sessionId = storage.sessions.create({ title: 'Names' }).id;
  turnId = storage.turns.start({ sessionId, userRequest: 'Look at my pictures' }).id;
  const put = async (session: string, seed: number, source: 'screen' | 'user') =>
    storage.images.put({ sessionId: session, turnId: session === sessionId ? turnId : null, bytes: await makePng({ width: 80, height: 60, seed }), mime: 'image/png', width: 80, height: 60, source });
  screenshot = await put(sessionId, 1, 'screen');
  picture = await put(sessionId, 2, 'user');
  otherPicture = await put(sessionId, 3, 'user');
  otherSessionPicture = await put(storage.sessions.create({ title: 'Elsewhere' }).id, 4, 'user');
});

afterEach(() => temporary.remove());

let callNumber = 0;
async function call(tool: ToolDefinition, argumentsValue: unknown) {
  callNumber += 1;
  const registry = createToolRegistry([tool]);
  const shownImages = ShownImages.of({ maxImageEdge: 1280, imageSizing: FIT_EDGE, coordinateSpace: 'pixels' });
  const { result } = await dispatchToolCall(
    registry,
    { id: `call_${callNumber}`, name: tool.name, argumentsText: JSON.stringify(argumentsValue) },
    { sessionId, turnId, signal: new AbortController().signal, storage, emit: () => undefined, shown: undefined, shownImages },
  );
  return result;
}

const getHistoryImage = () => createGetHistoryImageTool() as unknown as ToolDefinition;

function texts(parts: readonly MessagePart[]): string[] {
  return parts.filter((part): part is TextPart => part.type === 'text').map((part) => part.text);
}

function imageIds(parts: readonly MessagePart[]): string[] {
  return parts.flatMap((part) => (part.type === 'image' && part.imageId !== undefined ? [part.imageId] : []));
}

/** What get_history_image brought back for a name: the image's id, or its answer. */
async function recalled(name: string): Promise<string> {
  const result = await call(getHistoryImage(), { image_id: name });
  return result.isError === true ? texts(result.parts).join('\n') : imageIds(result.parts).join(',');
}

describe('recall by any name an image was given', () => {
  it('takes an image id in every form a model may copy it', async () => {
    const id = screenshot.id;
    const body = id.slice('img_'.length);
    const placeholder = placeholderText(id, 'step 4 · click (640, 412) · 14:03:22 · 80×60');
    for (const name of [
      id,
      body,
      `<${id}>`,
      ` ${id.toUpperCase()} `,
      `[${id}]`,
      placeholder,
      `[Visual_Placeholder: ${id}]`,
      `Visual_Placeholder: ${id}`,
      `[visual_placeholder:${body}]`,
      `<${id}> (reduced view; get_history_image ${id} shows it in full)`,
    ]) {
      expect(await recalled(name), name).toBe(id);
    }
  });

  it("takes a user picture's history name, its placeholder, and its hash alone, 8 hex digits or more", async () => {
    const named = historyPictureText(picture.sha256);
    const hash16 = named.slice('[Picture:history_'.length, -1);
    for (const name of [
      named,
      named.slice(1, -1),
      `history_${hash16}`,
      `[Picture: history_${hash16} ]`,
      `  [PICTURE:HISTORY_${hash16.toUpperCase()}]`,
      hash16,
      picture.sha256,
      picture.sha256.slice(0, 8),
      picture.sha256.slice(0, 12),
      `history_${picture.sha256.slice(0, 8)}`,
    ]) {
      expect(await recalled(name), name).toBe(picture.id);
    }
    const result = await call(getHistoryImage(), { image_id: named });
    expect(texts(result.parts)[0]).toBe(`${picture.id} ${named}: an image from the user from turn 1, 80×60 pixels.`);
  });

  it('keeps the plain answers for names too short, malformed or unknown, and for pictures of other sessions', async () => {
    for (const name of ['img_123', 'history_abc', picture.sha256.slice(0, 7), 'Picture:', '[Visual_Placeholder: ]', 'history_xyz12345', `img_${picture.sha256.slice(0, 16)}`]) {
      expect(await recalled(name), name).toBe('invalid image id');
    }
    for (const name of ['history_0000000000000000', '00000000', 'img_000000000000', historyPictureText(otherSessionPicture.sha256), otherSessionPicture.sha256.slice(0, 12)]) {
      expect(await recalled(name), name).toBe('image not found or expired');
    }
  });

  it('says a hash prefix is ambiguous when it starts two pictures, and takes a longer one', async () => {
    // Two real pictures sharing 10 hex digits would take billions of tries; the row is given such a hash instead.
    const shared = picture.sha256.slice(0, 10);
    const sibling = `${shared}${'0'.repeat(54)}`;
    withRawDatabase(storage.paths.databaseFile, (database) => database.prepare('UPDATE images SET sha256 = ? WHERE id = ?').run(sibling, otherPicture.id));
    const answer = await recalled(`history_${shared}`);
    expect(answer).toBe(
      `${shared} is ambiguous: it starts the hashes of 2 pictures (${[historyPictureText(picture.sha256), historyPictureText(sibling)].sort().join(', ')}); give more of the hash`,
    );
    expect(await recalled(picture.sha256.slice(0, 16))).toBe(picture.id);
    // Found by its own longer prefix; its file is stored under its real hash, so its pixels are not where the row says.
    expect(await recalled(`history_${sibling.slice(0, 16)}`)).toBe(`image ${otherPicture.id} unavailable: its file is missing`);
  });

  it('crops a user picture named by its history name', async () => {
    const result = await call(createCropImageTool() as unknown as ToolDefinition, { crops: { [historyPictureText(picture.sha256)]: [0, 0, 40, 30] } });
    expect(result.isError).toBeUndefined();
    const [cropId] = imageIds(result.parts);
    expect(storage.images.get(cropId!)).toMatchObject({ source: 'crop', width: 40, height: 30, caption: `crop of ${picture.id} [0, 0, 40, 30]` });
  });
});
