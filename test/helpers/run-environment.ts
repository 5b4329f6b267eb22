/**
 * What a test of `sightline run` needs around it: the bundled sandbox page served for the whole file, and a
 * fake model server and temporary home, fresh for each test (`per: 'test'`, the default) or shared by the
 * file's tests when they continue one session (`per: 'file'`). Call once at the top of a test file; it
 * registers the vitest hooks and returns live handles (read them inside tests, not at module level).
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './fake-openai-server.js';
import { createTemporaryHome, type TemporaryHome } from './seed.js';

export interface RunEnvironment {
  readonly sandbox: SandboxServer;
  readonly model: FakeOpenAiServer;
  readonly home: TemporaryHome;
}

export function useRunEnvironment(homeLabel: string, options: { per?: 'test' | 'file' } = {}): RunEnvironment {
  const [setUp, tearDown] = options.per === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  let sandbox: SandboxServer | undefined;
  let model: FakeOpenAiServer | undefined;
  let home: TemporaryHome | undefined;
  beforeAll(async () => {
    sandbox = await startSandboxServer();
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  setUp(async () => {
    model = await startFakeOpenAiServer();
    home = createTemporaryHome(homeLabel);
  });
  tearDown(async () => {
    await model?.close();
    home?.remove();
  });
  const ready = <Value>(value: Value | undefined, name: string): Value => {
    if (value === undefined) throw new Error(`the run environment's ${name} is only there inside a test`);
    return value;
  };
  return {
    get sandbox() {
      return ready(sandbox, 'sandbox');
    },
    get model() {
      return ready(model, 'model server');
    },
    get home() {
      return ready(home, 'home');
    },
  };
}
