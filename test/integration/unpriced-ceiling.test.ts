/**
 * `--max-cost` in dollars for a model whose price is unknown (issue 34, part 5): nothing could hold a run to it,
 * so `sightline run`, `sightline flow` and the SDK's `maxCost` refuse it before anything opens or any request is
 * sent, with the reason and what to do (exit 2 on the command line). gpt-5.5 is in the model table without a
 * price (no OpenAI page read gives one), so it stands for every current model without one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unpricedCeilingRefusal } from '../../src/main/agent/index.js';
import { Sightline, SightlineSetupError } from '../../src/main/automation/index.js';
import { runCli } from '../../src/main/cli/program.js';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const KEY = { OPENAI_API_KEY: 'sk-test-unpriced-0000' };
const REASON = /a ceiling of \$0\.50 cannot be held for gpt-5\.5, whose price is unknown .*give the ceiling in tokens \("200000 tokens"\), or the model's price in model\.pricing/;

let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-unpriced-ceiling');
  folder = mkdtempSync(join(tmpdir(), 'sightline-unpriced-flow-'));
});

afterEach(async () => {
  await model.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

describe('a ceiling in dollars for a model without a price', () => {
  it('is refused by sightline run before any request, naming the flag, with exit 2', async () => {
    const io = captureIo(KEY);
    const argv = ['--home', home.root, 'run', 'Name the team Platform', '--operator', 'browser', '--url', 'https://example.com/'];
    const exitCode = await runCli([...argv, '--model', 'gpt-5.5', '--base-url', model.baseUrl, '--max-cost', '0.5'], io);
    expect(exitCode, io.output.stderr).toBe(2);
    expect(io.output.stderr).toMatch(/--max-cost: /);
    expect(io.output.stderr).toMatch(REASON);
    expect(model.requests).toHaveLength(0);
  });

  it('is refused by sightline flow before any browser starts or any request is sent', async () => {
    const file = join(folder, 'team.flow.yaml');
    writeFileSync(file, 'name: Team\ntarget: { operator: browser, url: https://example.com/ }\nsteps:\n  - do: Name the team Platform\n');
    const io = captureIo(KEY, folder);
    const exitCode = await runCli(['--home', home.root, 'flow', file, '--model', 'gpt-5.5', '--base-url', model.baseUrl, '--max-cost', '$0.50'], io);
    expect(exitCode, io.output.stderr).toBe(2);
    expect(io.output.stderr).toMatch(/--max-cost: /);
    expect(io.output.stderr).toMatch(REASON);
    expect(model.requests).toHaveLength(0);
  });

  it('is refused by the SDK’s maxCost at launch', async () => {
    const launching = Sightline.launch({ url: 'https://example.com/', model: 'gpt-5.5', baseUrl: model.baseUrl, maxCost: 0.5, home: home.root, env: KEY });
    await expect(launching).rejects.toBeInstanceOf(SightlineSetupError);
    await expect(launching).rejects.toThrow(REASON);
    expect(model.requests).toHaveLength(0);
  });

  it('holds where the price is known, is in tokens, or is given by model.pricing', () => {
    const configOf = (name: string, pricing?: Config['model']['pricing']): Config => ({
      ...DEFAULT_CONFIG,
      model: { ...DEFAULT_CONFIG.model, name, ...(pricing === undefined ? {} : { pricing }) },
    });
    expect(unpricedCeilingRefusal(configOf('gpt-5.5'), '0.5', '--max-cost')).toMatch(REASON);
    expect(unpricedCeilingRefusal(configOf('gpt-5.4'), '0.5', '--max-cost')).toBeUndefined();
    expect(unpricedCeilingRefusal(configOf('claude-opus-5-5'), 0.5, 'maxCost')).toBeUndefined();
    expect(unpricedCeilingRefusal(configOf('gpt-5.5'), '200000 tokens', '--max-cost')).toBeUndefined();
    const given = { inputPerMillion: 5, cachedInputPerMillion: 0.5, outputPerMillion: 30, cacheWriteMultiplier: 1, cache: 'automatic' as const, minimumCacheableTokens: 1024 };
    expect(unpricedCeilingRefusal(configOf('gpt-5.5', given), '0.5', '--max-cost')).toBeUndefined();
  });
});
