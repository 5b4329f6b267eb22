/**
 * Claude's computer toolset end to end: `sightline run --operator browser --model claude-opus-5-5` as separate
 * processes on the bundled sandbox page, against the fake Messages API, which refuses what the real API refuses
 * (test/helpers/fake-anthropic-contract.ts, each rule with its page): the old tool for a model that takes only the
 * toolset, a member result without its toolset_name, an unanswered tool_use, a thinking block missing or altered,
 * forced tool use on Opus 5.5.
 *
 * - A current model drives the toolset: one `{ type: "computer_toolset_20260801" }` entry, no beta header.
 * - A reply with three member calls runs all three in order (the name lands in the field, then is saved).
 * - A failing second call (ctrl+w, refused without --yes) stops the third, and all three are answered, the third
 *   with the halt text the docs prescribe, every result echoing toolset_name.
 * - Thinking goes back unchanged: each of the five requests after the first carries the previous reply's thinking
 *   blocks (readable, empty as when display is omitted, redacted) exactly as they came, over the very history they
 *   were bound to (Opus 5.5 binds them), so the fake drops none.
 * - zoom returns a crop of Sightline's own stored frame at full resolution.
 * - A 400 naming the toolset (a platform without it) steps the model down to computer_20251124 within the run: the
 *   same request is sent again with the older tool and the run goes on with it; said once on the terminal,
 *   remembered in the home, shown by `config show`, and the next run starts there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { prefixOf } from '../helpers/fake-anthropic-contract.js';
import { startFakeAnthropicServer, type FakeAnthropicServer, type FakeToolUse, type RecordedAnthropicRequest } from '../helpers/fake-anthropic-server.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';
import { scaledLimit } from '../helpers/time-limits.js';

const KEY = 'sk-ant-e2e-toolset-0123456789SECRET';
const HALT = 'Not executed: an earlier computer action in this turn failed.';

let sandbox: SandboxServer;
let model: FakeAnthropicServer;
let platform: FakeAnthropicServer;
let home: TemporaryHome;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  model = await startFakeAnthropicServer();
  // A platform that does not serve the toolset (Anthropic's compatibility table: only the Claude API and Google Cloud do).
  platform = await startFakeAnthropicServer({ unsupportedToolTypes: { 'claude-opus-4-8': ['computer_toolset_20260801'] } });
  home = createTemporaryHome('sightline-run-browser-claude-toolset');
});
afterAll(async () => {
  await model.close();
  await platform.close();
  await sandbox.close();
  home.remove();
});

function run(modelName: string, baseUrl: string, task: string) {
  return runSightlineProcess(['--home', home.root, 'run', task, '--operator', 'browser', '--url', sandbox.url, '--model', modelName, '--base-url', baseUrl], {
    ANTHROPIC_API_KEY: KEY,
  });
}

function member(id: string, name: string, input: Record<string, unknown>): FakeToolUse {
  return { id, name, inputText: JSON.stringify(input), toolsetName: 'computer' };
}

interface Block {
  type: string;
  id?: string;
  name?: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  tool_use_id?: string;
  toolset_name?: string;
  is_error?: boolean;
  content?: Block[];
  source?: { type: string; data?: string };
}

interface Body {
  tools: Array<Record<string, unknown>>;
  tool_choice?: { type: string };
  thinking?: unknown;
  messages: Array<{ role: string; content: Block[] }>;
}

const bodyOf = (request: RecordedAnthropicRequest): Body => request.body as unknown as Body;
const blocksOf = (body: Body): Block[] => body.messages.flatMap((message) => message.content);

function resultOf(request: RecordedAnthropicRequest, toolUseId: string): Block {
  const found = blocksOf(bodyOf(request)).find((block) => block.type === 'tool_result' && block.tool_use_id === toolUseId);
  if (found === undefined) throw new Error(`no tool_result for ${toolUseId}`);
  return found;
}

const textOf = (block: Block): string => (block.content ?? []).filter((inner) => inner.type === 'text').map((inner) => inner.text).join('\n');

/** The thinking blocks of the request's last assistant turn, as sent. */
function lastThinking(request: RecordedAnthropicRequest): Block[] {
  const assistant = bodyOf(request).messages.filter((message) => message.role === 'assistant').at(-1);
  return (assistant?.content ?? []).filter((block) => block.type === 'thinking' || block.type === 'redacted_thinking');
}

describe('sightline run with a Claude model that takes the computer toolset', () => {
  it(
    'runs batches of member calls in order, halts a batch at its first failure, zooms into a stored frame, and sends thinking back unchanged',
    { timeout: scaledLimit(240_000) },
    async () => {
      const field = SANDBOX_LAYOUT.teamNameField;
      const save = SANDBOX_LAYOUT.saveButton;
      const region = [field.x - 120, field.y - 30, field.x + 120, field.y + 30];
      model.script([
        {
          type: 'answer',
          thinking: [{ thinking: '' }],
          text: 'I name the team and save.',
          toolUses: [
            member('toolu_ts_01', 'left_click', { coordinate: [field.x, field.y] }),
            member('toolu_ts_02', 'type', { text: 'Platform' }),
            member('toolu_ts_03', 'left_click', { coordinate: [save.x, save.y] }),
          ],
        },
        {
          type: 'answer',
          thinking: [{ thinking: 'Saved. I close the tab next.' }, { redacted: 'RURBQ1RFRC10SElOS0lORw==' }],
          toolUses: [
            member('toolu_ts_04', 'mouse_move', { coordinate: [field.x, field.y] }),
            member('toolu_ts_05', 'key', { text: 'ctrl+w' }),
            member('toolu_ts_06', 'screenshot', {}),
          ],
        },
        { type: 'answer', thinking: [{ thinking: 'I read the name up close.' }], toolUses: [member('toolu_ts_07', 'zoom', { region })] },
        { type: 'answer', thinking: [{ thinking: 'It says Platform.' }], toolUses: [member('toolu_ts_08', 'screenshot', {})] },
        { type: 'answer', thinking: [{ thinking: 'Done.' }], toolUses: [{ id: 'toolu_ts_09', name: 'finish', inputText: JSON.stringify({ summary: 'Named the team Platform.', success: true }) }] },
      ]);
      const first = await run('claude-opus-5-5', model.baseUrl, 'Name the team Platform and save');
      expect(model.refused.map((refusal) => refusal.message)).toEqual([]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout + first.stderr).not.toContain(KEY);
      // A cost per step (issue 34, part 5): Opus 5.5's model page prices it at $4 input and $20 output per
      // million tokens; each reply here is 120 in and 12 out, $0.00072.
      expect(first.stderr).toMatch(/^step \d+ .*132 tokens {2}\$0\.0007$/m);
      expect(first.stderr).not.toContain('cost unknown');
      const requests = model.requests.slice();
      expect(requests).toHaveLength(5);
      // No thinking block lost the history it was bound to (the fake drops such a block, as drop_block asks).
      expect(model.droppedThinking()).toBe(0);

      // The toolset: one entry, no computer beta header; tool_choice never forced; thinking adaptive, told to drop a bound block it cannot keep.
      for (const request of requests) {
        const body = bodyOf(request);
        expect(body.tools.filter((tool) => String(tool.type).startsWith('computer'))).toEqual([{ type: 'computer_toolset_20260801' }]);
        expect(body.tools.some((tool) => tool.name === 'computer')).toBe(false);
        expect(String(request.headers['anthropic-beta'] ?? '')).not.toContain('computer-use');
        expect(body.tool_choice?.type).not.toBe('any');
        expect(body.thinking).toEqual({ type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } });
      }

      // Three member calls in one reply, in order: click the field, type, click Save: the page saved the name.
      expect(sandbox.state()).toMatchObject({ teamName: 'Platform' });
      for (const id of ['toolu_ts_01', 'toolu_ts_02', 'toolu_ts_03']) {
        const result = resultOf(requests[1]!, id);
        expect(result.toolset_name).toBe('computer');
        expect(result.is_error).toBeUndefined();
      }
      // The member calls went back as Claude wrote them: named by the member, with toolset_name, no `action`.
      const sentCalls = bodyOf(requests[1]!).messages.at(-2)!.content.filter((block) => block.type === 'tool_use');
      expect(sentCalls.map((block) => [block.name, block.toolset_name])).toEqual([
        ['left_click', 'computer'],
        ['type', 'computer'],
        ['left_click', 'computer'],
      ]);

      // The second batch: the move ran, ctrl+w was refused (nobody to confirm it), and the screenshot after it did not run.
      const moved = resultOf(requests[2]!, 'toolu_ts_04');
      const refused = resultOf(requests[2]!, 'toolu_ts_05');
      const skipped = resultOf(requests[2]!, 'toolu_ts_06');
      expect(moved.is_error).toBeUndefined();
      expect(refused).toMatchObject({ is_error: true, toolset_name: 'computer' });
      expect(textOf(refused)).toMatch(/refused/);
      expect(skipped).toMatchObject({ is_error: true, toolset_name: 'computer', content: [{ type: 'text', text: HALT }] });

      // Thinking: each request carries the previous reply's blocks exactly as they came (the fake checks the signatures too).
      const issued = [
        [{ type: 'thinking', thinking: '' }],
        [{ type: 'thinking', thinking: 'Saved. I close the tab next.' }, { type: 'redacted_thinking', data: 'RURBQ1RFRC10SElOS0lORw==' }],
        [{ type: 'thinking', thinking: 'I read the name up close.' }],
        [{ type: 'thinking', thinking: 'It says Platform.' }],
      ];
      for (const [index, blocks] of issued.entries()) {
        const sent = lastThinking(requests[index + 1]!);
        expect(sent.map(({ type, thinking, data }) => ({ type, ...(thinking === undefined ? {} : { thinking }), ...(data === undefined ? {} : { data }) }))).toEqual(blocks);
        for (const block of sent.filter((each) => each.type === 'thinking')) expect(block.signature).toMatch(/^sig_/);
        // Thinking opens the assistant turn, as the API requires.
        const assistant = bodyOf(requests[index + 1]!).messages.at(-2)!;
        expect(assistant.content[0]!.type).toMatch(/thinking/);
        // Opus 5.5 binds a block to the history before it: each request extends the one before it exactly (no screen
        // of the running turn reduced or folded), so no block loses its history and none is dropped.
        const before = bodyOf(requests[index]!).messages.length;
        const extends_ = prefixOf(requests[index + 1]!.body, before) === prefixOf(requests[index]!.body, before);
        expect(extends_, `request ${index + 2} repeats request ${index + 1} as it was sent`).toBe(true);
      }

      // zoom: a crop of the stored frame it names, at the frame's own resolution.
      const zoomed = resultOf(requests[3]!, 'toolu_ts_07');
      expect(zoomed.toolset_name).toBe('computer');
      const frameId = /of (img_[0-9a-f]{12}), the screen now/.exec(textOf(zoomed))?.[1];
      expect(frameId, textOf(zoomed)).toBeDefined();
      const sentImage = (zoomed.content ?? []).find((block) => block.type === 'image');
      const sentBytes = Buffer.from(sentImage!.source!.data!, 'base64');
      const storage = openHomeStorage(home);
      try {
        // The timeline shows a thinking summary only where the API returned one (issue 34, part 2): the first reply's
        // empty block (thinking by default, text omitted) adds nothing; the second's text leads its first call's step.
        const thoughts = storage.steps.listBySession(storage.sessions.list()[0]!.id).map((step) => step.thought);
        expect(thoughts[0]).toBe('I name the team and save.');
        expect(thoughts.filter((thought) => thought?.includes('Thinking:'))).toEqual(['Thinking: Saved. I close the tab next.', 'Thinking: I read the name up close.', 'Thinking: It says Platform.', 'Thinking: Done.']);
        const stored = await storage.images.read(frameId!);
        if (stored.status !== 'ok') throw new Error('the zoomed frame cannot be read');
        const [left, top, right, bottom] = region as [number, number, number, number];
        const expected = await sharp(stored.bytes).extract({ left, top, width: right - left, height: bottom - top }).ensureAlpha().raw().toBuffer();
        const got = sharp(sentBytes);
        expect(await got.metadata()).toMatchObject({ width: right - left, height: bottom - top });
        expect((await got.ensureAlpha().raw().toBuffer()).equals(expected)).toBe(true);
      } finally {
        storage.close();
      }
    },
  );

  it(
    'steps down to computer_20251124 within the run when the platform refuses the toolset, says so once, remembers it, and starts there next time',
    // Three processes one after the other: at a load of 20 each takes over a minute.
    { timeout: scaledLimit(480_000) },
    async () => {
      const field = SANDBOX_LAYOUT.teamNameField;
      const save = SANDBOX_LAYOUT.saveButton;
      const action = (id: string, input: Record<string, unknown>): FakeToolUse => ({ id, name: 'computer', inputText: JSON.stringify(input) });
      // What a model offered computer_20251124 answers: the one `computer` tool, the action in its input.
      platform.script([
        {
          type: 'answer',
          toolUses: [
            action('toolu_sd_a', { action: 'left_click', coordinate: [field.x, field.y] }),
            action('toolu_sd_b', { action: 'type', text: 'Stepped' }),
            action('toolu_sd_c', { action: 'left_click', coordinate: [save.x, save.y] }),
          ],
        },
        { type: 'answer', toolUses: [{ id: 'toolu_sd_d', name: 'finish', inputText: JSON.stringify({ summary: 'Named the team Stepped.', success: true }) }] },
      ]);
      const savesBefore = sandbox.saves();
      const refusedRun = await run('claude-opus-4-8', platform.baseUrl, 'Name the team Stepped and save');
      expect(refusedRun.code, refusedRun.stderr).toBe(0);
      // One refusal, then the same request again with the older tool, and the run goes on with it.
      expect(platform.refused).toHaveLength(1);
      expect(platform.requests).toHaveLength(3);
      const [refused, resent, after] = platform.requests.map(bodyOf);
      expect(refused!.tools).toContainEqual({ type: 'computer_toolset_20260801' });
      expect(platform.refused[0]!.message).toContain('does not support tool types: computer_toolset_20260801');
      expect(resent!.messages).toEqual(refused!.messages);
      for (const [index, body] of [resent!, after!].entries()) {
        expect(body.tools.filter((tool) => String(tool.type).startsWith('computer'))).toEqual([
          { type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800, enable_zoom: true },
        ]);
        expect(String(platform.requests[index + 1]!.headers['anthropic-beta'])).toContain('computer-use-2025-11-24');
      }
      // The batch ran in order through Sightline's tools (the page saved the name), and went back as the beta tool's calls.
      // (The page keeps the name an earlier test saved; the click puts the caret after it.)
      expect(sandbox.saves()).toBe(savesBefore + 1);
      expect(sandbox.state().teamName).toMatch(/Stepped$/);
      const calls = after!.messages.at(-2)!.content.filter((block) => block.type === 'tool_use');
      expect(calls.map((block) => [block.name, block.toolset_name])).toEqual([
        ['computer', undefined],
        ['computer', undefined],
        ['computer', undefined],
      ]);
      expect(after!.messages.at(-1)!.content.filter((block) => block.type === 'tool_result').map((block) => [block.is_error, block.toolset_name])).toEqual([
        [undefined, undefined],
        [undefined, undefined],
        [undefined, undefined],
      ]);
      // Said once, on the terminal, and remembered in the home.
      expect(refusedRun.stderr.match(/stepped it down to computer_20251124, for this run and the next ones/g)).toHaveLength(1);
      const memoryFile = join(home.root, 'model-tools.json');
      expect(existsSync(memoryFile)).toBe(true);
      expect(JSON.parse(readFileSync(memoryFile, 'utf8'))).toMatchObject({
        anthropicComputerTool: { 'claude-opus-4-8': { toolType: 'computer_20251124', refused: 'computer_toolset_20260801' } },
      });

      const shown = await runSightlineProcess(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL_NAME: 'claude-opus-4-8' });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/computer tool: computer_20251124 \(claude-opus-4-8 refused computer_toolset_20260801/);

      platform.script([
        { type: 'answer', toolUses: [{ id: 'toolu_sd_01', name: 'computer', inputText: JSON.stringify({ action: 'left_click', coordinate: [SANDBOX_LAYOUT.teamNameField.x, SANDBOX_LAYOUT.teamNameField.y] }) }] },
        { type: 'answer', toolUses: [{ id: 'toolu_sd_02', name: 'finish', inputText: JSON.stringify({ summary: 'Clicked the field.', success: true }) }] },
      ]);
      const before = platform.requests.length;
      const next = await run('claude-opus-4-8', platform.baseUrl, 'Click the team name field');
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toMatch(/claude-opus-4-8 refused computer_toolset_20260801 on .*; it is offered computer_20251124/);
      const firstRequest = platform.requests[before]!;
      expect(bodyOf(firstRequest).tools).toContainEqual({ type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800, enable_zoom: true });
      expect(String(firstRequest.headers['anthropic-beta'])).toContain('computer-use-2025-11-24');
      expect(platform.refused).toHaveLength(1);
    },
  );
});
