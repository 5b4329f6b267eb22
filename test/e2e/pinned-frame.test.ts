/**
 * A pinned frame, end to end (issue 16): four turns of one session run through the app API (the run manager,
 * the one run assembly with compaction at each turn's end, the agent loop, the real OpenAI client against the
 * fake model server, a fake operator). After turn 1 a person pins one of its middle frames, as the timeline's
 * pin control does. Three turns later, with turn 1 long out of the anchor turns and the frame's file in cold
 * storage, every request still carries that frame whole, while its unpinned neighbour is a placeholder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatMessages, computerCall, contentText, finishCall } from '../helpers/agent-harness.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';

let api: AppApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** Runs one turn from the app API and waits for its end; returns the session and how many requests it made. */
async function runTurn(run: AppApiHarness, task: string, moves: number, sessionId?: string): Promise<{ sessionId: string; requests: number[] }> {
  const before = run.server.requests.length;
  run.server.script([...Array.from({ length: moves }, (_, index) => computerCall({ action: 'click', x: 40 + index * 30, y: 60 + index * 20 })), finishCall(`${task}: done.`)]);
  const started = await run.call('startRun', { task, ...(sessionId === undefined ? {} : { sessionId }) });
  const ended = await run.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
  expect(ended.status).toBe('finished');
  await run.nextEvent('run-state', (event) => event.state === 'ended' && event.turnId === started.turnId);
  const after = run.server.requests.length;
  return { sessionId: started.sessionId, requests: Array.from({ length: after - before }, (_, index) => before + index) };
}

/**
 * How a request carries a frame that came back in a tool result: Chat Completions names it by its id token in
 * the tool message and attaches the pixels in the user message right after. `whole`, `reduced` (low detail),
 * `placeholder` (folded: `[Visual_Placeholder: id]` in the tool message), or `absent`.
 */
function carriedAs(messages: Array<Record<string, unknown>>, imageId: string): 'whole' | 'reduced' | 'placeholder' | 'absent' {
  for (const [index, message] of messages.entries()) {
    const text = contentText(message);
    // Its own placeholder, or (an older turn) its id in the turn's one line of placeholders.
    if (text.includes(`[Visual_Placeholder: ${imageId}]`) || new RegExp(`\\[Visual_Placeholders: [^\\]]*\\b${imageId}\\b`).test(text)) return 'placeholder';
    if (message.role !== 'tool' || !text.includes(`<${imageId}>`)) continue;
    const attachment = messages[index + 1]?.content as Array<{ type: string; image_url?: { detail?: string } }> | undefined;
    const image = attachment?.find((part) => part.type === 'image_url');
    if (image === undefined) return 'absent';
    return image.image_url?.detail === 'low' ? 'reduced' : 'whole';
  }
  return 'absent';
}

describe('a pinned frame', () => {
  it('is still sent whole three turns after it was pinned, its pixels read back from cold storage', { timeout: 120_000 }, async () => {
    const run = (api = await startAppApiHarness());
    const first = await runTurn(run, 'Open the team settings', 4);
    const { sessionId } = first;

    // The frame the model looked at before its third step came back in the first step's result.
    const steps = (await run.call('listSteps', { sessionId })).steps;
    const pinned = steps[2]!.screenshot!;
    const neighbour = steps[3]!.screenshot!;
    expect(await run.call('pinImage', pinned.imageId)).toEqual({ imageId: pinned.imageId, pinned: true });
    // The timeline is told: pinned, and whole in the next request.
    const shown = (await run.call('listSteps', { sessionId })).steps;
    expect(shown[2]!.screenshot).toMatchObject({ pinned: true, nextRequest: 'whole' });

    const laterTurns = [];
    for (const task of ['Find the invite form', 'Fill in the address', 'Send the invitation']) laterTurns.push(await runTurn(run, task, 2, sessionId));

    // Turn 1 was compacted at its end: the pinned frame's file is in cold storage, like its neighbour's.
    expect(run.storage.turns.listBySession(sessionId)[0]!.compactedAt).not.toBeNull();
    expect(run.storage.images.get(pinned.imageId)?.zone).toBe('offloaded');
    expect(run.storage.images.get(neighbour.imageId)?.zone).toBe('offloaded');

    // Every request of the fourth turn carries the pinned frame whole; its unpinned neighbour is a placeholder.
    const fourth = laterTurns.at(-1)!;
    expect(fourth.requests.length).toBeGreaterThanOrEqual(3);
    for (const index of fourth.requests) {
      const messages = chatMessages(run.server, index);
      expect(carriedAs(messages, pinned.imageId), `request ${index}`).toBe('whole');
      expect(carriedAs(messages, neighbour.imageId), `request ${index}`).toBe('placeholder');
    }
    // The pin holds from the first request after it: the second turn's first (without the pin, turn 1's middle
    // frames fold when it ends).
    expect(carriedAs(chatMessages(run.server, laterTurns[0]!.requests[0]!), pinned.imageId)).toBe('whole');

    // Only a person pins: no request offers the model a tool for it.
    for (const request of run.server.requests) {
      const tools = ((request.body as { tools?: { function?: { name?: string } }[] }).tools ?? []).map((tool) => tool.function?.name ?? '');
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.filter((name) => /pin/i.test(name))).toEqual([]);
    }

    // Unpinned, the next request folds it like its neighbour.
    await run.call('unpinImage', pinned.imageId);
    const fifth = await runTurn(run, 'Check the invitation', 1, sessionId);
    expect(carriedAs(chatMessages(run.server, fifth.requests[0]!), pinned.imageId)).toBe('placeholder');
    expect((await run.call('listSteps', { sessionId })).steps[2]!.screenshot).toMatchObject({ pinned: false, nextRequest: 'folded' });
  });
});
