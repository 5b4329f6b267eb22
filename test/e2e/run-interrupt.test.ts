/**
 * Ctrl+C in the middle of a turn of `sightline run` (a real process, a real SIGINT): the model call under
 * way is abandoned, the turn ends as stopped, the process exits 3, and the database is left consistent:
 * integrity check ok, no step half-written, every image row with its file. The session then continues.
 * A second Ctrl+C, for a stop that takes too long (an action still running), quits at once.
 */
import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../../src/shared/events.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { withRawDatabase } from '../helpers/raw-database.js';
import { openHomeStorage } from '../helpers/seed.js';
import { runSightlineProcess, startSightline } from './support/sightline-process.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { waitFor } from '../helpers/wait-for.js';
import { startLatchPage } from '../helpers/latch-page.js';
import { CLI_TEST_MS, scaledLimit } from '../helpers/time-limits.js';

const environment = useRunEnvironment('sightline-run-interrupt', { per: 'file' });

function runArgs(task: string, ...extra: string[]): string[] {
  return runArgsOn(environment.sandbox.url, task, ...extra);
}

function runArgsOn(url: string, task: string, ...extra: string[]): string[] {
  return ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', url, '--base-url', environment.model.baseUrl, '--json', ...extra];
}

/** Another process's requests and output: only polling can see them. */
function until(condition: () => boolean, description: string): Promise<true> {
  return waitFor(condition, { description, timeoutMs: scaledLimit(60_000) });
}

describe('Ctrl+C during sightline run', () => {
  it('stops the turn cleanly, exits 3, leaves the database consistent, and the session continues', { timeout: scaledLimit(CLI_TEST_MS) }, async () => {
    environment.model.script(scriptedMoves([{ action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } }, { hang: true }]));
    const running = startSightline(runArgs('Name the team Platform'));
    await until(() => environment.model.requests.length === 2, 'the second model call');
    running.child.kill('SIGINT');
    const stopped = await running.exited;

    expect(stopped.code, stopped.stderr).toBe(3);
    expect(await environment.model.requests[1]!.closed).toBe('aborted');
    const events = stopped.stdout.trimEnd().split('\n').map((line) => AgentEventSchema.parse(JSON.parse(line)));
    const ended = events.at(-1)!;
    expect(ended).toMatchObject({ type: 'turn-ended', status: 'stopped' });
    const { sessionId, turnId } = ended as { sessionId: string; turnId: string };

    const storage = openHomeStorage(environment.home);
    try {
      withRawDatabase(storage.paths.databaseFile, (database) => {
        expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(database.pragma('foreign_key_check')).toEqual([]);
      });
      expect(storage.turns.get(turnId)?.status).toBe('stopped');
      expect(storage.turns.listBySession(sessionId).filter((turn) => turn.status === 'running')).toEqual([]);
      const steps = storage.steps.listByTurn(turnId);
      expect(steps.length).toBeGreaterThanOrEqual(1);
      for (const step of steps) expect(step.result !== null || step.error !== null, `step ${step.id} has no outcome`).toBe(true);
      for (const image of storage.images.listBySession(sessionId)) {
        expect(await storage.blobs.locate(image.sha256, image.mime), `file of ${image.id}`).toBeDefined();
      }
    } finally {
      storage.close();
    }

    environment.model.script(scriptedMoves([{ finish: 'Nothing left to do.' }]));
    const continued = await runSightlineProcess(runArgs('Carry on', '--session', sessionId));
    expect(continued.code, continued.stderr).toBe(0);
    const after = openHomeStorage(environment.home);
    try {
      expect(after.turns.listBySession(sessionId).map((turn) => turn.status)).toEqual(['stopped', 'finished']);
    } finally {
      after.close();
    }
  });

  it('quits at once on a second Ctrl+C while the current action still runs, leaving the database intact', { timeout: scaledLimit(CLI_TEST_MS) }, async () => {
    // The click is held by the page until the test lets it go, so both Ctrl+Cs land while the action runs,
    // however slow the machine: the first cannot finish the turn before the second arrives.
    const latch = await startLatchPage();
    const quit = await (async () => {
      try {
        environment.model.script(scriptedMoves([{ action: { action: 'click', x: 400, y: 300 } }, { finish: 'Clicked.' }]));
        const running = startSightline(runArgsOn(latch.url, 'Click the button'));
        const exitedEarly = running.exited.then((exit) => Promise.reject(new Error(`sightline exited (${exit.code}) before the click:\n${exit.stderr}`)));
        await Promise.race([latch.reached, exitedEarly]);
        running.child.kill('SIGINT');
        await until(() => running.output.stderr.includes('stopping'), 'the first Ctrl+C to be taken');
        running.child.kill('SIGINT');
        return await running.exited;
      } finally {
        await latch.close();
      }
    })();

    expect(quit.code, quit.stderr).toBe(130);
    expect(quit.stderr).toContain('quitting at once');
    const storage = openHomeStorage(environment.home);
    try {
      withRawDatabase(storage.paths.databaseFile, (database) => {
        expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      });
    } finally {
      storage.close();
    }
  });
});
