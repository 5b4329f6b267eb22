/**
 * Damaged data at start and in use. A truncated, garbage or emptied sightline.db: `sightline run`,
 * `sessions ls`, `sessions show` and `doctor` say so plainly (exit 1, no stack trace), tell how to move
 * the file aside and keep it, and never write to it. A damaged image file (bytes flipped in blobs/ or in
 * cold storage) is "unavailable" in the model's request, in get_history_image and in the app API's
 * getImage, and the turn goes on.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { compactTurn } from '../../src/main/context/index.js';
import type { ImageRecord, Storage } from '../../src/main/storage/index.js';
import { startAgentHarness, computerCall, finishCall, toolCall, chatMessages, contentText, type AgentHarness } from '../helpers/agent-harness.js';
import { startAppApiHarness } from '../helpers/app-api-harness.js';
import { runSightline } from '../helpers/cli-io.js';
import { withRawDatabase } from '../helpers/raw-database.js';
import { createTemporaryHome, openHomeStorage, seedStorage, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;
let healthyDatabase: Buffer;
let sessionId: string;

beforeAll(async () => {
  home = createTemporaryHome('sightline-corrupt');
  const storage = openHomeStorage(home);
  const [seeded] = await seedStorage(storage, { sessions: 2, turnsPerSession: 3, stepsPerTurn: 4 });
  sessionId = seeded!.session.id;
  withRawDatabase(storage.paths.databaseFile, (database) => database.pragma('wal_checkpoint(TRUNCATE)'));
  storage.close();
  healthyDatabase = readFileSync(home.databaseFile);
});

afterAll(() => home?.remove());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const DAMAGES = [
  { name: 'truncated to half', damage: (file: string) => truncateSync(file, Math.floor(healthyDatabase.length / 2)) },
  { name: 'truncated to its first page', damage: (file: string) => truncateSync(file, 4096) },
  { name: 'overwritten with garbage', damage: (file: string) => writeFileSync(file, Buffer.from('not a database at all\n'.repeat(400))) },
  { name: 'emptied while images remain', damage: (file: string) => truncateSync(file, 0) },
];

const COMMANDS = [
  { name: 'run', argv: () => ['run', 'do something', '--operator', 'browser', '--url', 'http://127.0.0.1:9/', '--base-url', 'http://127.0.0.1:9/v1'] },
  { name: 'sessions ls', argv: () => ['sessions', 'ls'] },
  { name: 'sessions show', argv: () => ['sessions', 'show', sessionId] },
  { name: 'doctor', argv: () => ['doctor'] },
];

describe('a damaged database file', () => {
  describe.each(DAMAGES)('$name', ({ damage }) => {
    it.each(COMMANDS)('sightline $name says so, tells how to keep it, and leaves it as it was', async ({ argv }) => {
      writeFileSync(home.databaseFile, healthyDatabase);
      damage(home.databaseFile);
      const before = sha256(readFileSync(home.databaseFile));

      const result = await runSightline(['--home', home.root, ...argv()], { OPENAI_API_KEY: 'sk-test' });
      const output = `${result.stdout}\n${result.stderr}`;

      expect([1, 2]).toContain(result.exitCode);
      expect(output).toContain(home.databaseFile);
      expect(output).toMatch(/move it aside/i);
      expect(output).toMatch(/keep/i);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain('unexpected error');
      expect(sha256(readFileSync(home.databaseFile))).toBe(before);
    });
  });

  it('starts a new database once the damaged file is moved aside as the message says, the old one kept', async () => {
    writeFileSync(home.databaseFile, Buffer.from('garbage '.repeat(100)));
    const refused = await runSightline(['--home', home.root, 'sessions', 'ls']);
    expect(refused.exitCode).toBe(1);
    const kept = `${home.databaseFile}.broken`;
    expect(refused.stderr).toContain(`mv "${home.databaseFile}" "${kept}"`);
    renameSync(home.databaseFile, kept);
    rmSync(`${home.databaseFile}-wal`, { force: true });
    rmSync(`${home.databaseFile}-shm`, { force: true });

    const listed = await runSightline(['--home', home.root, 'sessions', 'ls']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('no sessions yet');
    expect(readFileSync(kept).toString()).toBe('garbage '.repeat(100));
  });
});

/** Flips bytes in the middle of an image's file, wherever it is. */
function damageImageFile(storage: Storage, image: ImageRecord, location: 'blobs' | 'cold'): void {
  const path = storage.blobs.pathFor(location, image.sha256, image.mime);
  const bytes = readFileSync(path);
  for (let index = Math.floor(bytes.length / 2); index < Math.floor(bytes.length / 2) + 16 && index < bytes.length; index += 1) bytes[index] = bytes[index]! ^ 0xff;
  writeFileSync(path, bytes);
}

describe('a damaged image file', () => {
  let harness: AgentHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('is unavailable in the request and in get_history_image, in blobs/ and in cold storage, and the turn goes on', async () => {
    harness = await startAgentHarness();
    harness.server.script([computerCall({ action: 'click', x: 10, y: 10 }), computerCall({ action: 'click', x: 20, y: 20 }), finishCall()]);
    const first = await harness.agent.runTurn({ request: userText('First') });
    const images = harness.storage.images.listByTurn(first.turnId);
    expect(images.length).toBeGreaterThanOrEqual(3);
    await compactTurn({ storage: harness.storage, turnId: first.turnId });
    const cold = harness.storage.images.listByTurn(first.turnId).find((image) => image.zone === 'offloaded');
    expect(cold).toBeDefined();
    damageImageFile(harness.storage, cold!, 'cold');
    const hot = harness.storage.images.listByTurn(first.turnId).find((image) => image.zone !== 'offloaded');
    damageImageFile(harness.storage, hot!, 'blobs');

    const requestsBefore = harness.server.requests.length;
    harness.server.script([toolCall('get_history_image', { image_id: cold!.id }), toolCall('get_history_image', { image_id: hot!.id }), finishCall()]);
    const second = await harness.agent.runTurn({ request: userText('Look back'), sessionId: first.sessionId });

    expect(second.status).toBe('finished');
    const request = chatMessages(harness.server, requestsBefore).map(contentText).join('\n');
    expect(request).toContain(`[image ${hot!.id} unavailable: its file is damaged]`);
    const toolResults = chatMessages(harness.server, requestsBefore + 2).filter((message) => message.role === 'tool').map(contentText);
    expect(toolResults.some((text) => text.includes(`image ${cold!.id} unavailable: its file is damaged`))).toBe(true);
    expect(toolResults.some((text) => text.includes(`image ${hot!.id} unavailable: its file is damaged`))).toBe(true);
  });

  it('is unavailable from the app API getImage, with the reason', async () => {
    const api = await startAppApiHarness({ seed: { sessions: 1, turnsPerSession: 1, stepsPerTurn: 2 } });
    try {
      const [image] = api.seeded[0]!.turns[0]!.images;
      damageImageFile(api.storage, image!, 'blobs');
      const result = await api.call('getImage', { imageId: image!.id });
      expect(result).toMatchObject({ status: 'unavailable', reason: 'corrupt' });
      const healthy = await api.call('getImage', { imageId: api.seeded[0]!.turns[0]!.images[1]!.id });
      expect(healthy.status).toBe('ok');
    } finally {
      await api.close();
    }
  });
});
