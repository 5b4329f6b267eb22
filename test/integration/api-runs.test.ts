/**
 * Runs through the app API: the real agent and model adapter against the fake model server, a fake operator.
 * startRun answers with the session and turn at once; the turn goes on in the background, its events reach
 * subscribers; a confirmation or a question waits for the answer given by requestId; pause holds the loop
 * before its next model call; stop ends the turn as stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppApiError } from '../../src/shared/app-api.js';
import { DisplayUnavailableError } from '../../src/main/operators/display-errors.js';
import { startAppApiHarness, HARNESS_API_KEY, type AppApiHarness } from '../helpers/app-api-harness.js';
import { computerCall, contentText, chatMessages, finishCall, toolCall } from '../helpers/agent-harness.js';

let api: AppApiHarness | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function harness(options: Parameters<typeof startAppApiHarness>[0] = {}): Promise<AppApiHarness> {
  api = await startAppApiHarness(options);
  return api;
}

function turnEnded(harnessed: AppApiHarness, turnId: string) {
  return harnessed.nextEvent('turn-ended', (event) => event.turnId === turnId);
}

describe('startRun', () => {
  it('starts a new session, runs the turn in the background and streams its events', async () => {
    const run = await harness();
    run.server.script([computerCall({ action: 'click', x: 100, y: 50 }), finishCall('Clicked it.')]);
    const started = await run.call('startRun', { task: 'click the button' });
    expect(started.sessionId).toMatch(/^ses_/);
    const ended = await turnEnded(run, started.turnId);
    expect(ended).toMatchObject({ status: 'finished', summary: 'Clicked it.', sessionId: started.sessionId });
    await run.nextEvent('run-state', (event) => event.state === 'ended' && event.sessionId === started.sessionId);
    expect(run.events.map((event) => event.type)).toEqual(expect.arrayContaining(['turn-started', 'screenshot', 'step', 'turn-ended', 'run-state']));
    expect(run.operators[0]?.executed.map((entry) => entry.action)).toEqual([{ action: 'click', x: 100, y: 50 }]);
    const steps = await run.call('listSteps', { sessionId: started.sessionId });
    expect(steps.steps.map((step) => step.tool)).toEqual(['computer', 'finish']);
    expect((await run.call('listRuns')).runs).toEqual([]);
    // Nothing the renderer receives carries the key.
    expect(JSON.stringify(run.events)).not.toContain(HARNESS_API_KEY);
  });

  it('offers a run started from the app the same tools as sightline run (web_search with a Tavily key)', async () => {
    const toolsOffered = async (search: { tavilyApiKey?: string }) => {
      const run = await harness({ search });
      run.server.script([finishCall('Done.')]);
      const started = await run.call('startRun', { task: 'look something up' });
      await turnEnded(run, started.turnId);
      const body = run.server.requests[0]?.body as { tools?: { function?: { name?: string } }[] };
      await run.close();
      api = undefined;
      return (body.tools ?? []).map((tool) => tool.function?.name);
    };
    expect(await toolsOffered({ tavilyApiKey: 'tvly-app-test' })).toContain('web_search');
    expect(await toolsOffered({})).not.toContain('web_search');
  });

  it('answers a run it cannot set up as a request error naming why, and starts nothing', async () => {
    const run = await harness();
    const refused = run.call('startRun', { task: 'open the page', operator: 'desktop', url: 'http://127.0.0.1:9/' });
    await expect(refused).rejects.toMatchObject({ code: 'invalid-arguments', message: expect.stringContaining('browser operator') });
    expect(run.operators).toHaveLength(0);
    expect((await run.call('listRuns')).runs).toEqual([]);
  });

  it('refuses a dialect that cannot work with the configuration as a request error, before any model call', async () => {
    // UI-TARS's grammar has no place for web_search, which a Tavily key would offer.
    const uiTars = await harness({ model: { name: 'ui-tars-1.5-7b' }, search: { tavilyApiKey: 'tvly-app-test' } });
    const refused = uiTars.call('startRun', { task: 'look something up' });
    await expect(refused).rejects.toMatchObject({
      code: 'invalid-arguments',
      message: expect.stringMatching(/ui-tars dialect .*cannot offer .*web_search .*unset TAVILY_API_KEY/),
    });
    expect(uiTars.server.requests).toHaveLength(0);
    expect(uiTars.operators).toHaveLength(0);
    expect((await uiTars.call('listRuns')).runs).toEqual([]);
    await uiTars.close();

    // OpenAI's computer tool is a Responses API tool.
    const computer = await harness({ model: { name: 'gpt-4.1', dialect: 'openai-computer', api: 'chat-completions' } });
    await expect(computer.call('startRun', { task: 'click the button' })).rejects.toMatchObject({
      code: 'invalid-arguments',
      message: expect.stringContaining('set model.api to responses'),
    });
    expect(computer.server.requests).toHaveLength(0);
    expect(computer.operators).toHaveLength(0);
  });

  it('answers a run whose display cannot be reached as unavailable, with the display message, and calls no model', async () => {
    const run = await harness({ operator: { describeError: new DisplayUnavailableError('nothing listens on :77') } });
    const refused = run.call('startRun', { task: 'click the button' });
    await expect(refused).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('no display to capture (nothing listens on :77)') });
    expect(run.server.requests).toHaveLength(0);
    expect((await run.call('listRuns')).runs).toEqual([]);
  });

  it('continues an existing session and refuses a second run on it', async () => {
    const run = await harness({ seed: { sessions: 1, turnsPerSession: 1, stepsPerTurn: 1 } });
    const sessionId = run.seeded[0]?.session.id ?? '';
    run.server.script([{ type: 'hang' }]);
    const started = await run.call('startRun', { sessionId, task: 'second request' });
    expect(started.sessionId).toBe(sessionId);
    const second = await run.callRaw('startRun', [{ sessionId, task: 'third' }]).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(AppApiError);
    expect((second as AppApiError).code).toBe('conflict');
    expect(await run.call('stopRun', sessionId)).toEqual({ stopped: true });
    expect(await turnEnded(run, started.turnId)).toMatchObject({ status: 'stopped' });
    expect(run.storage.turns.get(started.turnId)?.status).toBe('stopped');
  });

  it('refuses an unknown session, and stopping where nothing runs says so', async () => {
    const run = await harness();
    const error = await run.callRaw('startRun', [{ sessionId: 'ses_000000000000', task: 'x' }]).catch((caught: unknown) => caught);
    expect((error as AppApiError).code).toBe('not-found');
    expect(await run.call('stopRun', 'ses_000000000000')).toEqual({ stopped: false });
    expect((await run.callRaw('pauseRun', ['ses_000000000000']).catch((caught: unknown) => caught)) as AppApiError).toMatchObject({ code: 'not-found' });
  });

  it('passes ephemeral context on to the agent, which records only its type and length', async () => {
    const run = await harness();
    run.server.script([finishCall('Read it.')]);
    const started = await run.call('startRun', { task: 'read the note', ephemeral: { type: 'note', content: 'The code is 4512.' } });
    await turnEnded(run, started.turnId);
    const { injections } = await run.call('listInjections', started.sessionId);
    expect(injections).toEqual([expect.objectContaining({ type: 'note', contentLength: 'The code is 4512.'.length })]);
  });
});

describe('a person in the loop', () => {
  it('holds a risky action until answerConfirmation approves it, by requestId', async () => {
    const run = await harness({ agent: { confirm: 'always' } });
    run.server.script([computerCall({ action: 'click', x: 10, y: 10 }), finishCall()]);
    const started = await run.call('startRun', { task: 'click' });
    const requested = await run.nextEvent('confirmation-requested');
    const { runs } = await run.call('listRuns');
    expect(runs[0]?.pending).toEqual([expect.objectContaining({ kind: 'confirmation', requestId: requested.requestId, action: { action: 'click', x: 10, y: 10 } })]);
    expect(run.operators[0]?.executed).toEqual([]);
    expect(await run.call('answerConfirmation', { requestId: 'not-a-request', approved: true })).toEqual({ answered: false });
    expect(await run.call('answerConfirmation', { requestId: requested.requestId, approved: true })).toEqual({ answered: true });
    expect(await run.nextEvent('confirmation-answered')).toMatchObject({ approved: true, by: 'user' });
    expect(await turnEnded(run, started.turnId)).toMatchObject({ status: 'finished' });
    expect(run.operators[0]?.executed.map((entry) => entry.action.action)).toEqual(['click']);
    expect(await run.call('answerConfirmation', { requestId: requested.requestId, approved: true })).toEqual({ answered: false });
  });

  it('does nothing when the person refuses', async () => {
    const run = await harness({ agent: { confirm: 'always' } });
    run.server.script([computerCall({ action: 'click', x: 10, y: 10 }), finishCall('Refused, so I stopped.')]);
    const started = await run.call('startRun', { task: 'click' });
    const requested = await run.nextEvent('confirmation-requested');
    await run.call('answerConfirmation', { requestId: requested.requestId, approved: false });
    await turnEnded(run, started.turnId);
    expect(run.operators[0]?.executed).toEqual([]);
  });

  it('sends the answer to ask_user back to the model', async () => {
    const run = await harness();
    run.server.script([toolCall('ask_user', { question: 'Which colour?' }), finishCall('Blue it is.')]);
    const started = await run.call('startRun', { task: 'pick a colour' });
    const asked = await run.nextEvent('ask-user');
    expect(asked.question).toBe('Which colour?');
    expect(await run.call('answerQuestion', { requestId: asked.requestId, answer: 'blue' })).toEqual({ answered: true });
    await turnEnded(run, started.turnId);
    const lastRequest = chatMessages(run.server, 1).map(contentText).join('\n');
    expect(lastRequest).toContain('The user answered: blue');
  });
});

describe('pause and stop', () => {
  it('pauses before the next model call and goes on when resumed', async () => {
    const gates: { open: boolean }[] = [];
    let reachGate: () => void = () => undefined;
    const gateReached = new Promise<void>((resolve) => (reachGate = resolve));
    const run = await harness({
      onStepGate: (gate) => {
        const seen = { open: false };
        gates.push(seen);
        gate.then(() => (seen.open = true)).catch(() => undefined);
        reachGate();
      },
    });
    run.server.script([computerCall({ action: 'click', x: 5, y: 5 }), finishCall()]);
    const started = await run.call('startRun', { task: 'click' });
    expect(await run.call('pauseRun', started.sessionId)).toEqual({ sessionId: started.sessionId, state: 'paused' });
    await run.nextEvent('screenshot');
    // The first screenshot is taken and the loop stands at the gate before its first model call.
    await gateReached;
    // Every callback of an open gate would have run by the next turn of the event loop: it is held shut.
    await new Promise((resolve) => setImmediate(resolve));
    expect(gates).toEqual([{ open: false }]);
    expect(run.server.requests).toHaveLength(0);
    expect((await run.call('listRuns')).runs[0]?.state).toBe('paused');
    expect((await run.call('listSessions', { limit: 5 })).sessions[0]?.run).toBe('paused');
    expect(gates).toEqual([{ open: false }]);
    expect(await run.call('resumeRun', started.sessionId)).toEqual({ sessionId: started.sessionId, state: 'running' });
    expect(await turnEnded(run, started.turnId)).toMatchObject({ status: 'finished' });
    expect(gates[0]).toEqual({ open: true });
    expect(run.server.requests).toHaveLength(2);
  });

  it('stops a paused run without another model call', async () => {
    const run = await harness();
    run.server.script([finishCall()]);
    const started = await run.call('startRun', { task: 'wait' });
    await run.call('pauseRun', started.sessionId);
    await run.nextEvent('screenshot');
    expect(await run.call('stopRun', started.sessionId)).toEqual({ stopped: true });
    expect(await turnEnded(run, started.turnId)).toMatchObject({ status: 'stopped' });
    expect(run.server.requests).toHaveLength(0);
    expect(run.storage.sessions.get(started.sessionId)?.status).toBe('idle');
  });

  it('refuses to delete a session while it runs', async () => {
    const run = await harness();
    run.server.script([{ type: 'hang' }]);
    const started = await run.call('startRun', { task: 'hang' });
    const error = await run.callRaw('deleteSession', [started.sessionId]).catch((caught: unknown) => caught);
    expect((error as AppApiError).code).toBe('conflict');
    await run.call('stopRun', started.sessionId);
    await turnEnded(run, started.turnId);
  });
});
