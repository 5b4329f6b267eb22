/**
 * The browser operator through `sightline run`, as separate processes: two turns of one session on the
 * bundled sandbox page, the second continued with --session. The page itself reports what the agent's
 * clicks and keystrokes did (it saves its state to the sandbox server), and the database holds both turns.
 */
import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../../src/shared/events.js';
import { DEMO_TURNS } from '../../demo/demo-script.js';
import { scriptedMoves, type RequestSummary } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';
import { useRunEnvironment } from '../helpers/run-environment.js';

const environment = useRunEnvironment('sightline-run-browser', { per: 'file' });

function runArgs(task: string, sessionId?: string): string[] {
  return ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--json',
    ...(sessionId ? ['--session', sessionId] : [])];
}

describe('sightline run --operator browser', () => {
  it('changes the page over two turns of one session', { timeout: 60_000 }, async () => {
    const [nameTurn, summaryTurn] = DEMO_TURNS as [typeof DEMO_TURNS[0], typeof DEMO_TURNS[0]];
    const requests: RequestSummary[] = [];
    environment.model.script(scriptedMoves(nameTurn.moves, (summary) => requests.push(summary)));
    const first = await runSightlineProcess(runArgs(nameTurn.task));
    expect(first.code, first.stderr).toBe(0);
    const firstEvents = first.stdout.trimEnd().split('\n').map((line) => AgentEventSchema.parse(JSON.parse(line)));
    const sessionId = firstEvents[0]!.sessionId;
    expect(environment.sandbox.state()).toMatchObject({ teamName: 'Platform', weeklySummary: false });

    environment.model.script(scriptedMoves(summaryTurn.moves, (summary) => requests.push(summary)));
    const second = await runSightlineProcess(runArgs(summaryTurn.task, sessionId));
    expect(second.code, second.stderr).toBe(0);
    // The second browser opened the page afresh: what it shows came from the first turn's Save.
    expect(environment.sandbox.state()).toMatchObject({ teamName: 'Platform', weeklySummary: true });
    expect(requests.every((request) => request.images > 0)).toBe(true);
    expect(requests.at(-1)!.text).toContain(nameTurn.task.replace(/"/g, '\\"'));

    const storage = openHomeStorage(environment.home);
    try {
      const turns = storage.turns.listBySession(sessionId);
      expect(turns.map((turn) => turn.status)).toEqual(['finished', 'finished']);
      expect(turns.map((turn) => turn.userRequest)).toEqual([nameTurn.task, summaryTurn.task]);
      expect(storage.steps.listBySession(sessionId).length).toBeGreaterThanOrEqual(nameTurn.moves.length + summaryTurn.moves.length - 2);
      expect(storage.images.listBySession(sessionId).length).toBeGreaterThan(0);
    } finally {
      storage.close();
    }
  });
});
