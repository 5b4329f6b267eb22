/**
 * The home's memory of a computer tool a Claude model refused is read and written by every face, not only
 * `sightline run`: the SDK (Sightline.launch) and `sightline flow` (each flow is an SDK automation), through their
 * public surface, on the bundled sandbox page against the fake Messages API standing for a platform without the
 * toolset (Anthropic's compatibility table: only the Claude API and Google Cloud serve it; the fake refuses it as
 * the API does, test/helpers/fake-anthropic-contract.ts).
 *
 * - The SDK: a `do` step whose first request is refused steps down within the step, says so as a warning event,
 *   and the home remembers it; the next automation on that home starts on computer_20251124.
 * - `sightline flow`: a home that remembers the step-down starts the flow there and says so; a fresh home steps
 *   down within the flow and remembers it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { Sightline } from '../../src/main/automation/index.js';
import type { AgentEvent } from '../../src/shared/events.js';
import { startFakeAnthropicServer, type FakeAnthropicReply, type FakeAnthropicServer, type RecordedAnthropicRequest } from '../helpers/fake-anthropic-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';
import { scaledLimit } from '../helpers/time-limits.js';

const KEY = 'sk-ant-e2e-step-down-faces-0123456789SECRET';
const MODEL = 'claude-opus-4-8';
const BETA_TOOL = { type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800, enable_zoom: true };

let sandbox: SandboxServer;
let platform: FakeAnthropicServer;
let folder: string;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  platform = await startFakeAnthropicServer({ unsupportedToolTypes: { [MODEL]: ['computer_toolset_20260801'] } });
  folder = mkdtempSync(join(tmpdir(), 'sightline-step-down-faces-'));
});
afterAll(async () => {
  await platform.close();
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

const computerTools = (request: RecordedAnthropicRequest) =>
  ((request.body.tools as Array<Record<string, unknown>>) ?? []).filter((tool) => String(tool.type).startsWith('computer'));

/** A model on computer_20251124: the `computer` tool, the action in its input; then finish. */
function nameTheTeam(name: string, prefix: string): FakeAnthropicReply[] {
  const field = SANDBOX_LAYOUT.teamNameField;
  const save = SANDBOX_LAYOUT.saveButton;
  const action = (id: string, input: Record<string, unknown>) => ({ id: `${prefix}_${id}`, name: 'computer', inputText: JSON.stringify(input) });
  return [
    {
      type: 'answer',
      toolUses: [
        action('a', { action: 'left_click', coordinate: [field.x, field.y] }),
        action('b', { action: 'type', text: name }),
        action('c', { action: 'left_click', coordinate: [save.x, save.y] }),
      ],
    },
    { type: 'answer', toolUses: [{ id: `${prefix}_d`, name: 'finish', inputText: JSON.stringify({ summary: `Named the team ${name}.`, success: true }) }] },
  ];
}

function rememberedIn(home: TemporaryHome): unknown {
  return (JSON.parse(readFileSync(join(home.root, 'model-tools.json'), 'utf8')) as { anthropicComputerTool: Record<string, unknown> }).anthropicComputerTool[MODEL];
}

describe('the SDK reads and writes the step-down memory', () => {
  it('steps down within a do step, says so as a warning event, remembers it, and the next automation starts there', { timeout: scaledLimit(360_000) }, async () => {
    const home = createTemporaryHome('sightline-step-down-sdk');
    try {
      const events: AgentEvent[] = [];
      platform.script(nameTheTeam('Scripted', 'toolu_sdk1'));
      const before = platform.requests.length;
      const refusedBefore = platform.refused.length;
      const first = await Sightline.launch({ home: home.root, env: { ANTHROPIC_API_KEY: KEY }, model: MODEL, baseUrl: platform.baseUrl, url: sandbox.url, onEvent: (event) => events.push(event) });
      try {
        await first.do('Name the team Scripted and save');
      } finally {
        await first.close();
      }
      expect(platform.refused.length - refusedBefore).toBe(1);
      expect(computerTools(platform.requests[before]!)).toEqual([{ type: 'computer_toolset_20260801' }]);
      expect(computerTools(platform.requests[before + 1]!)).toEqual([BETA_TOOL]);
      expect(sandbox.state()).toMatchObject({ teamName: 'Scripted' });
      const warnings = events.filter((event) => event.type === 'warning').map((event) => (event as { message: string }).message);
      expect(warnings.filter((message) => /stepped it down to computer_20251124/.test(message))).toHaveLength(1);
      expect(rememberedIn(home)).toMatchObject({ toolType: 'computer_20251124', refused: 'computer_toolset_20260801' });

      platform.script(nameTheTeam('Again', 'toolu_sdk2'));
      const next = platform.requests.length;
      const second = await Sightline.launch({ home: home.root, env: { ANTHROPIC_API_KEY: KEY }, model: MODEL, baseUrl: platform.baseUrl, url: sandbox.url });
      try {
        await second.do('Name the team Again and save');
      } finally {
        await second.close();
      }
      expect(computerTools(platform.requests[next]!)).toEqual([BETA_TOOL]);
      expect(platform.refused.length - refusedBefore).toBe(1);
    } finally {
      home.remove();
    }
  });
});

describe('sightline flow reads and writes the step-down memory', () => {
  it('a fresh home steps down within the flow and remembers it; the next flow starts on computer_20251124 and says why', { timeout: scaledLimit(480_000) }, async () => {
    const home = createTemporaryHome('sightline-step-down-flow');
    try {
      const file = join(folder, 'team.flow.yaml');
      writeFileSync(file, 'name: Team\ntarget: { operator: browser, url: "${env.PAGE_URL}" }\nsteps:\n  - do: Name the team Flowed and save\n');
      const flow = () => runSightlineProcess(['--home', home.root, 'flow', file, '--model', MODEL, '--base-url', platform.baseUrl], { ANTHROPIC_API_KEY: KEY, PAGE_URL: sandbox.url });

      platform.script(nameTheTeam('Flowed', 'toolu_flow1'));
      const refusedBefore = platform.refused.length;
      const before = platform.requests.length;
      const first = await flow();
      expect(first.code, first.stderr).toBe(0);
      expect(platform.refused.length - refusedBefore).toBe(1);
      expect(computerTools(platform.requests[before + 1]!)).toEqual([BETA_TOOL]);
      expect(rememberedIn(home)).toMatchObject({ toolType: 'computer_20251124', refused: 'computer_toolset_20260801' });

      platform.script(nameTheTeam('Flowed', 'toolu_flow2'));
      const next = platform.requests.length;
      const second = await flow();
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toMatch(new RegExp(`${MODEL} refused computer_toolset_20260801 on .*; it is offered computer_20251124`));
      expect(computerTools(platform.requests[next]!)).toEqual([BETA_TOOL]);
      expect(platform.refused.length - refusedBefore).toBe(1);
      expect(second.stdout + second.stderr).not.toContain(KEY);
    } finally {
      home.remove();
    }
  });
});
