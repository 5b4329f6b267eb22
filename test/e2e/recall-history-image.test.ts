/**
 * Looking back at a folded screenshot, end to end: `sightline run` as separate processes with the browser
 * operator on the bundled sandbox page, three turns of one session. Each turn is compacted when it ends,
 * so by the third turn the first turn's middle screenshots are named in its `[Visual_Placeholders: img_… …]`
 * line (older turns name their folded images in one line), with their files in cold storage. The scripted model reads such an id from its request, calls
 * get_history_image on it, and the next request carries that very image's pixels, read back from
 * cold storage.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEMO_TURNS } from '../../demo/demo-script.js';
import { type RecordedRequest } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';
import { useRunEnvironment } from '../helpers/run-environment.js';

const environment = useRunEnvironment('sightline-recall-e2e', { per: 'file' });

/** A placeholder, or an older turn's line of them: `[Visual_Placeholder: img_…]`, `[Visual_Placeholders: img_… img_…]`. */
const PLACEHOLDERS = /\[Visual_Placeholders?: ([^\]]+)\]/g;
const IMAGE_ID = /img_[0-9a-f]{12}/g;

function runArgs(task: string, sessionId?: string): string[] {
  return ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--json',
    ...(sessionId ? ['--session', sessionId] : [])];
}

interface ChatMessage {
  role: string;
  content: unknown;
}

interface ChatPart {
  type: string;
  text?: string;
  image_url?: { url: string };
}

/**
 * The image a tool result returned for `imageId`: Chat Completions cannot carry images in a tool message,
 * so the adapter names the image by its token in the tool message and attaches the pixels in the user
 * message right after it.
 */
function toolResultImages(request: RecordedRequest, imageId: string): Buffer[] {
  const messages = (request.body as { messages: ChatMessage[] }).messages;
  const index = messages.findIndex((message) => message.role === 'tool' && JSON.stringify(message.content).includes(`<${imageId}>`));
  const attachment = messages[index + 1];
  if (index === -1 || attachment?.role !== 'user' || !Array.isArray(attachment.content)) return [];
  return (attachment.content as ChatPart[])
    .filter((part) => part.type === 'image_url')
    .map((part) => Buffer.from(part.image_url!.url.replace(/^data:image\/[a-z]+;base64,/, ''), 'base64'));
}

function zoneOf(imageId: string): string | undefined {
  const storage = openHomeStorage(environment.home);
  try {
    return storage.images.get(imageId)?.zone;
  } finally {
    storage.close();
  }
}

async function pixelsOf(bytes: Buffer): Promise<Buffer> {
  return (await sharp(bytes).ensureAlpha().raw().toBuffer());
}

describe('recalling a folded screenshot of an earlier turn', () => {
  it('brings its pixels back from cold storage into the next request', { timeout: 120_000 }, async () => {
    const [nameTurn, summaryTurn] = DEMO_TURNS as [typeof DEMO_TURNS[0], typeof DEMO_TURNS[0]];
    environment.model.script(scriptedMoves(nameTurn.moves));
    const first = await runSightlineProcess(runArgs(nameTurn.task));
    expect(first.code, first.stderr).toBe(0);
    const sessionId = /continue it with --session (ses_[0-9a-f]{12})/.exec(first.stderr)?.[1];
    expect(sessionId, first.stderr).toBeDefined();

    environment.model.script(scriptedMoves(summaryTurn.moves));
    const second = await runSightlineProcess(runArgs(summaryTurn.task, sessionId));
    expect(second.code, second.stderr).toBe(0);

    // Third turn: the model looks back at the oldest folded screenshot it is shown a placeholder for.
    let recalledId: string | undefined;
    const placeholdersSeen: string[] = [];
    const requestsBefore = environment.model.requests.length;
    environment.model.script([
      ...scriptedMoves([{ tool: 'get_history_image', arguments: { image_id: 'pending' } }]).map((reply) => (request: RecordedRequest) => {
        placeholdersSeen.push(...[...request.rawBody.matchAll(PLACEHOLDERS)].flatMap((match) => match[1]!.match(IMAGE_ID) ?? []));
        // Anchors of turns that left the anchor window are placeholders too, with their files still in
        // blobs/; the model here wants one whose pixels went to cold storage.
        recalledId = placeholdersSeen.find((imageId) => zoneOf(imageId) === 'offloaded');
        const answer = reply(request);
        if (answer.type !== 'answer' || recalledId === undefined) return answer;
        // The id as a model would type it: without its prefix.
        const argumentsText = JSON.stringify({ image_id: recalledId.slice('img_'.length) });
        return { ...answer, toolCalls: [{ name: 'get_history_image', arguments: argumentsText }] };
      }),
      ...scriptedMoves([{ finish: 'I looked at the earlier screen again.' }]),
    ]);
    const third = await runSightlineProcess(runArgs('What did the page look like while you were typing the name?', sessionId));
    expect(third.code, third.stderr).toBe(0);
    expect(recalledId, `no placeholder of an offloaded image among ${placeholdersSeen.join(', ')}`).toBeDefined();

    const storage = openHomeStorage(environment.home);
    try {
      const turns = storage.turns.listBySession(sessionId!);
      expect(turns).toHaveLength(3);
      expect(turns.every((turn) => turn.compactedAt !== null)).toBe(true);
      const record = storage.images.get(recalledId!)!;
      // A screenshot of the first turn, folded: its file lives in cold storage only.
      expect(record.turnId).toBe(turns[0]!.id);
      expect(record.zone).toBe('offloaded');
      const coldFile = storage.blobs.pathFor('cold', record.sha256, record.mime);
      expect(existsSync(coldFile)).toBe(true);
      expect(existsSync(storage.blobs.pathFor('blobs', record.sha256, record.mime))).toBe(false);

      // The request that answered the recall: the image is in it, after its id token, with the stored pixels.
      const thirdRequests = environment.model.requests.slice(requestsBefore);
      expect(thirdRequests).toHaveLength(2);
      expect(thirdRequests[0]!.rawBody).not.toContain(`"<${recalledId}>"`);
      const sent = toolResultImages(thirdRequests[1]!, recalledId!);
      expect(sent).toHaveLength(1);
      const stored = await storage.images.read(recalledId!);
      expect(stored.status === 'ok' && stored.location).toBe('cold');
      if (stored.status !== 'ok') throw new Error('the recalled image cannot be read');
      expect(createHash('sha256').update(stored.bytes).digest('hex')).toBe(record.sha256);
      expect(createHash('sha256').update(sent[0]!).digest('hex')).toBe(record.sha256);
      expect((await pixelsOf(sent[0]!)).equals(await pixelsOf(stored.bytes))).toBe(true);

      const recallStep = storage.steps.listByTurn(turns[2]!.id).find((step) => JSON.stringify(step.action).includes('get_history_image'));
      expect(recallStep?.result).toMatchObject({ ok: true, imageId: recalledId, location: 'cold-storage' });
    } finally {
      storage.close();
    }
  });
});
