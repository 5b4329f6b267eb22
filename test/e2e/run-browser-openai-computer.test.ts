/**
 * `sightline run --operator browser --model computer-use-preview` over the Responses API, as a separate
 * process, on the bundled sandbox page shown to the model at half size (1280x800 viewport, 640x400
 * screenshots), through the fake server replaying OpenAI's computer_call and reasoning items
 * (test/fixtures/openai-computer cites their shapes). The model points in the screenshot's pixels; the page
 * reports what the clicks and keystrokes did. The Save click carries a pending safety check: without --yes
 * nobody can acknowledge it and nothing runs; with --yes it runs and the next request acknowledges it.
 */
import { describe, expect, it } from 'vitest';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import type { FakeReply, FakeResponsesItem, RecordedRequest } from '../helpers/fake-openai-server.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { guideClick, MALICIOUS_INSTRUCTIONS_CHECK } from '../fixtures/openai-computer/computer-calls.js';
import { runSightlineProcess } from './support/sightline-process.js';

const environment = useRunEnvironment('sightline-run-openai-computer');

/** The model sees the 1280x800 page at 640x400, so it names half the page's coordinates. */
const SHOWN = 640;
const inScreenshot = (point: { x: number; y: number }) => ({ x: point.x / 2, y: point.y / 2 });

type Item = Record<string, unknown>;

function inputOf(request: RecordedRequest): Item[] {
  return (request.body as { input: Item[] }).input;
}

/** One reply per request, each given only when the request shows a screenshot (a vision model cannot act blind). */
function replies(answers: FakeReply[]): Array<(request: RecordedRequest) => FakeReply> {
  return answers.map((answer) => (request) => {
    const images = JSON.stringify(request.body).match(/data:image\/png;base64,/g)?.length ?? 0;
    if (images === 0) return { type: 'error', status: 400, message: 'the scripted model was sent no screenshot' };
    return answer;
  });
}

function nameTeamAndSave(): FakeReply[] {
  const save: FakeResponsesItem = {
    type: 'computer_call',
    id: 'cu_save',
    callId: 'call_save',
    action: { type: 'click', button: 'left', ...inScreenshot(SANDBOX_LAYOUT.saveButton) },
    pendingSafetyChecks: [MALICIOUS_INSTRUCTIONS_CHECK],
  };
  return [
    { type: 'answer', responsesItems: guideClick(inScreenshot(SANDBOX_LAYOUT.teamNameField), 'call_field') },
    { type: 'answer', responsesItems: [{ type: 'reasoning', summary: ['Typing the name.'], encryptedContent: 'gAAAA-type' }, { type: 'computer_call', id: 'cu_type', callId: 'call_type', action: { type: 'type', text: 'Platform' } }] },
    { type: 'answer', responsesItems: [{ type: 'reasoning', summary: ['Saving.'], encryptedContent: 'gAAAA-save' }, save] },
    { type: 'answer', text: 'The team name is typed; the save click was answered.' },
  ];
}

function runArgs(...extra: string[]): string[] {
  return [
    '--home', environment.home.root, 'run', 'Name the team "Platform" and save the settings.',
    '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl,
    '--model', 'computer-use-preview', '--json', ...extra,
  ];
}

const RUN_ENVIRONMENT = { SIGHTLINE_MODEL_API: 'responses', SIGHTLINE_PERCEPTION_MAX_IMAGE_EDGE: String(SHOWN) };

function eventsOf(stdout: string): AgentEvent[] {
  return stdout.trimEnd().split('\n').map((line) => AgentEventSchema.parse(JSON.parse(line)));
}

describe('sightline run --model computer-use-preview (openai-computer)', () => {
  it('clicks and types where the model pointed, and acknowledges the safety check with --yes', { timeout: 90_000 }, async () => {
    const savesBefore = environment.sandbox.saves();
    environment.model.script(replies(nameTeamAndSave()));
    const run = await runSightlineProcess(runArgs('--yes'), RUN_ENVIRONMENT);
    expect(run.code, run.stderr).toBe(0);
    // The page saved what was typed into the field the click focused.
    expect(environment.sandbox.state()).toMatchObject({ teamName: 'Platform' });
    expect(environment.sandbox.saves() - savesBefore).toBe(1);

    const requests = environment.model.requests;
    expect(requests).toHaveLength(4);
    expect((requests[0]!.body as { tools: Item[] }).tools[0]).toEqual({ type: 'computer_use_preview', display_width: 640, display_height: 400, environment: 'browser' });
    expect(requests[0]!.body).toMatchObject({ model: 'computer-use-preview', truncation: 'auto', include: ['reasoning.encrypted_content'] });
    // The calls go back as the model made them, each after its reasoning, each answered with a screenshot.
    const last = inputOf(requests[3]!);
    expect(last.filter((item) => item.type === 'reasoning').map((item) => item.id)).toEqual(['rs_call_field', expect.any(String), expect.any(String)]);
    expect(last.filter((item) => item.type === 'computer_call').map((item) => item.call_id)).toEqual(['call_field', 'call_type', 'call_save']);
    const outputs = last.filter((item) => item.type === 'computer_call_output');
    expect(outputs.map((item) => item.call_id)).toEqual(['call_field', 'call_type', 'call_save']);
    expect(outputs.every((item) => String((item.output as Item).image_url).startsWith('data:image/png;base64,'))).toBe(true);
    expect((outputs[0]!.output as Item).current_url).toBe(environment.sandbox.url);
    expect(outputs[2]!.acknowledged_safety_checks).toEqual([MALICIOUS_INSTRUCTIONS_CHECK]);
    expect(outputs[0]!.acknowledged_safety_checks).toBeUndefined();

    const events = eventsOf(run.stdout);
    expect(events.find((event) => event.type === 'confirmation-answered')).toMatchObject({ approved: true, by: 'flag' });
    expect(events.at(-1)).toMatchObject({ type: 'turn-ended', status: 'finished', summary: 'The team name is typed; the save click was answered.' });
    expect(run.stderr).toContain('allowed by --yes');
  });

  it('refuses the safety check without --yes and a terminal: the click does not run, and the turn goes on', { timeout: 90_000 }, async () => {
    const savesBefore = environment.sandbox.saves();
    environment.model.script(replies(nameTeamAndSave()));
    const run = await runSightlineProcess(runArgs(), RUN_ENVIRONMENT);
    expect(run.code, run.stderr).toBe(0);
    // Typed, never saved: the Save click was not acknowledged, so it never reached the page.
    expect(environment.sandbox.saves() - savesBefore).toBe(0);
    expect(run.stderr).toContain('pass --yes');

    const requests = environment.model.requests;
    expect(requests).toHaveLength(4);
    const last = inputOf(requests[3]!);
    expect(last.filter((item) => item.type === 'computer_call').map((item) => item.call_id)).toEqual(['call_field', 'call_type']);
    expect(last.some((item) => item.type === 'computer_call_output' && item.acknowledged_safety_checks !== undefined)).toBe(false);
    expect(JSON.stringify(last)).toContain("OpenAI's safety check was not acknowledged");

    const events = eventsOf(run.stdout);
    expect(events.find((event) => event.type === 'confirmation-answered')).toMatchObject({ approved: false, by: 'policy' });
    const steps = events.filter((event) => event.type === 'step');
    expect(steps.map((event) => event.type === 'step' && event.ok)).toEqual([true, true, false]);
    expect(events.at(-1)).toMatchObject({ type: 'turn-ended', status: 'finished' });
  });
});
