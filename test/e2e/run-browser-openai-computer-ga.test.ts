/**
 * `sightline run --operator browser --model gpt-5.4`, spawned, with nothing else chosen: the model profile
 * picks OpenAI's GA `computer` tool over the Responses API. The fake server stands for api.openai.com
 * (`refuseAsOpenAi`: it refuses computer-use-preview and the preview tool for a GA model, as the real API
 * does) and replays the GA tool's computer_call with a batched `actions` list (OpenAI's computer use guide,
 * https://developers.openai.com/api/docs/guides/tools-computer-use, cited in test/fixtures/openai-computer).
 * The bundled sandbox page reports what the clicks and typing did (its saved state), at half size
 * (1280x800 viewport, 640x400 screenshots).
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import type { FakeReply, RecordedRequest } from '../helpers/fake-openai-server.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { MALICIOUS_INSTRUCTIONS_CHECK } from '../fixtures/openai-computer/computer-calls.js';
import { runSightlineProcess } from './support/sightline-process.js';

const environment = useRunEnvironment('sightline-run-openai-computer-ga');

const SHOWN = 640;
const inScreenshot = (point: { x: number; y: number }) => ({ x: point.x / 2, y: point.y / 2 });
const click = (point: { x: number; y: number }) => ({ type: 'click', button: 'left', ...inScreenshot(point) });

type Item = Record<string, unknown>;

const inputOf = (request: RecordedRequest): Item[] => (request.body as { input: Item[] }).input;

/** One reply per request, each given only when the request shows a screenshot (a vision model cannot act blind). */
function replies(answers: FakeReply[]): Array<(request: RecordedRequest) => FakeReply> {
  return answers.map((answer) => (request) => {
    const images = JSON.stringify(request.body).match(/data:image\/png;base64,/g)?.length ?? 0;
    if (images === 0) return { type: 'error', status: 400, message: 'the scripted model was sent no screenshot' };
    return answer;
  });
}

function batch(callId: string, actions: Item[], pendingSafetyChecks: Array<typeof MALICIOUS_INSTRUCTIONS_CHECK> = []): FakeReply {
  return {
    type: 'answer',
    responsesItems: [
      { type: 'reasoning', summary: ['Acting on the settings page.'], encryptedContent: `gAAAA-${callId}` },
      { type: 'computer_call', id: `cu_${callId}`, callId, actions, pendingSafetyChecks },
    ],
    usage: { inputTokens: 1_200, outputTokens: 80 },
  };
}

function runArgs(...extra: string[]): string[] {
  return [
    '--home', environment.home.root, 'run', 'Name the team "Platform" and save the settings.',
    '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl,
    '--model', 'gpt-5.4', ...extra,
  ];
}

// No SIGHTLINE_MODEL_API and no --dialect: the profile chooses both.
const RUN_ENVIRONMENT = { SIGHTLINE_PERCEPTION_MAX_IMAGE_EDGE: String(SHOWN), OPENAI_API_KEY: 'sk-test-ga-000000' };

const eventsOf = (stdout: string): AgentEvent[] => stdout.trimEnd().split('\n').map((line) => AgentEventSchema.parse(JSON.parse(line)));

describe('sightline run --model gpt-5.4 (the GA computer tool by default)', () => {
  it('runs a batch of actions in order, where the model pointed, and answers it with one computer_call_output', { timeout: 180_000 }, async () => {
    environment.model.refuseAsOpenAi = true;
    const savesBefore = environment.sandbox.saves();
    environment.model.script(
      replies([
        batch('call_batch', [click(SANDBOX_LAYOUT.teamNameField), { type: 'type', text: 'Platform' }, click(SANDBOX_LAYOUT.saveButton)]),
        { type: 'answer', text: 'Saved the team name.', usage: { inputTokens: 1_500, outputTokens: 20 } },
      ]),
    );
    const run = await runSightlineProcess(runArgs(), RUN_ENVIRONMENT);
    expect(run.code, run.stderr).toBe(0);
    expect(environment.sandbox.state()).toMatchObject({ teamName: 'Platform' });
    expect(environment.sandbox.saves() - savesBefore).toBe(1);

    const requests = environment.model.requests;
    expect(requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses']);
    expect(requests[0]!.body).toMatchObject({ model: 'gpt-5.4', tools: [{ type: 'computer' }, ...Array(3).fill(expect.anything())] });
    expect((requests[0]!.body as { tools: Item[] }).tools[0]).toEqual({ type: 'computer' });
    const second = inputOf(requests[1]!);
    const calls = second.filter((item) => item.type === 'computer_call');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.actions).toHaveLength(3);
    const outputs = second.filter((item) => item.type === 'computer_call_output');
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toMatchObject({ call_id: 'call_batch', output: { type: 'computer_screenshot' } });
    expect(Object.keys(outputs[0]!.output as Item).sort()).toEqual(['image_url', 'type']);
    expect(String((outputs[0]!.output as Item).image_url)).toMatch(/^data:image\/png;base64,/);

    // A cost per step (issue 34, part 5): gpt-5.4's model page prices it at $2.50 input and $15 output per million
    // tokens: 1,200 in and 80 out is $0.0042; the turn's end gives the sum in dollars.
    expect(run.stderr).toMatch(/^step 1 .*1,280 tokens {2}\$0\.0042$/m);
    expect(run.stderr).toMatch(/finished after \d+ steps?, .*, cost \$0\.00\d+/);
    expect(run.stderr).not.toContain('cost unknown');
  });

  it('stops a batch at its first failing action: the rest never runs, and the model is told', { timeout: 180_000 }, async () => {
    environment.model.refuseAsOpenAi = true;
    const savesBefore = environment.sandbox.saves();
    environment.model.script(
      replies([
        // The third action points outside the 640x400 screenshot: it fails, so the Save click after it never runs.
        batch('call_fails', [click(SANDBOX_LAYOUT.teamNameField), { type: 'type', text: ' Ops' }, { type: 'click', button: 'left', x: 5_000, y: 10 }, click(SANDBOX_LAYOUT.saveButton)]),
        batch('call_save', [click(SANDBOX_LAYOUT.saveButton)]),
        { type: 'answer', text: 'Saved after the failed click.' },
      ]),
    );
    const run = await runSightlineProcess(runArgs('--json'), RUN_ENVIRONMENT);
    expect(run.code, run.stderr).toBe(0);
    // Saved once, by the second call: the first batch's Save did not run, and its typing had (the page keeps
    // the file's earlier saves, so the typed text is what the name ends with).
    expect(environment.sandbox.saves() - savesBefore).toBe(1);
    expect(environment.sandbox.state().teamName).toMatch(/ Ops$/);

    const second = inputOf(environment.model.requests[1]!);
    expect(second.filter((item) => item.type === 'computer_call_output').map((item) => item.call_id)).toEqual(['call_fails']);
    expect(JSON.stringify(second)).toContain('Actions 4 to 4 were not run.');
    const steps = eventsOf(run.stdout).filter((event) => event.type === 'step');
    expect(steps.map((event) => event.type === 'step' && event.ok)).toEqual([false, true]);
  });

  it('holds a safety check without a yes: nothing of the batch runs, nothing is acknowledged', { timeout: 180_000 }, async () => {
    environment.model.refuseAsOpenAi = true;
    const savesBefore = environment.sandbox.saves();
    environment.model.script(
      replies([
        batch('call_checked', [click(SANDBOX_LAYOUT.teamNameField), { type: 'type', text: 'Platform' }, click(SANDBOX_LAYOUT.saveButton)], [MALICIOUS_INSTRUCTIONS_CHECK]),
        { type: 'answer', text: 'The safety check was not acknowledged.' },
      ]),
    );
    const run = await runSightlineProcess(runArgs('--json'), RUN_ENVIRONMENT);
    expect(run.code, run.stderr).toBe(0);
    expect(environment.sandbox.saves() - savesBefore).toBe(0);
    expect(run.stderr).toContain('pass --yes');
    const second = inputOf(environment.model.requests[1]!);
    expect(second.some((item) => item.acknowledged_safety_checks !== undefined)).toBe(false);
    expect(JSON.stringify(second)).toContain("OpenAI's safety check was not acknowledged");
    expect(eventsOf(run.stdout).find((event) => event.type === 'confirmation-answered')).toMatchObject({ approved: false, by: 'policy' });
  });
});

describe('sightline run --model computer-use-preview', () => {
  it('is refused before any request on OpenAI’s own API, naming the shutdown date and the substitute', { timeout: 120_000 }, async () => {
    environment.model.refuseAsOpenAi = true;
    const run = await runSightlineProcess(
      ['--home', environment.home.root, 'run', 'Save the settings.', '--operator', 'browser', '--url', environment.sandbox.url, '--model', 'computer-use-preview'],
      { ...RUN_ENVIRONMENT, SIGHTLINE_MODEL_API: 'responses' },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('shut down by OpenAI on 2026-07-23');
    expect(run.stderr).toContain('Use gpt-5.4-mini instead');
    expect(environment.model.requests).toHaveLength(0);
  });

  it('runs against a base URL elsewhere, which may still serve it', { timeout: 180_000 }, async () => {
    environment.model.refuseAsOpenAi = false;
    environment.model.script(
      replies([
        { type: 'answer', responsesItems: [{ type: 'computer_call', id: 'cu_one', callId: 'call_one', action: click(SANDBOX_LAYOUT.teamNameField) }] },
        { type: 'answer', text: 'Clicked.' },
      ]),
    );
    const run = await runSightlineProcess(
      ['--home', environment.home.root, 'run', 'Click the team name field.', '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--model', 'computer-use-preview'],
      { ...RUN_ENVIRONMENT, SIGHTLINE_MODEL_API: 'responses' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(environment.model.requests).toHaveLength(2);
    expect((environment.model.requests[0]!.body as { tools: Item[] }).tools[0]).toMatchObject({ type: 'computer_use_preview' });
  });
});
