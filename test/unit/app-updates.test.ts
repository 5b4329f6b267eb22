/**
 * The desktop app's update policy (issue 18, item 4): off in development and without a feed, checks and
 * downloads in the background, asks before restarting and never restarts on its own, logs failures. The
 * updater, the question and the timer are fakes; answers are released by the test, so nothing waits on time.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  UPDATE_CHECK_INTERVAL_MS,
  restartAnswer,
  restartQuestion,
  startAppUpdates,
  type AppUpdatesOptions,
  type RestartAnswer,
  type Updater,
} from '../../src/main/app/app-updates.js';

class FakeUpdater extends EventEmitter implements Updater {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs = 0;
  nextCheck: () => Promise<unknown> = async () => null;

  checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    return this.nextCheck();
  }

  quitAndInstall(): void {
    this.installs += 1;
  }
}

/** The dialog: each question waits until the test answers it. */
class FakeQuestions {
  readonly asked: string[] = [];
  private readonly pending: ((answer: RestartAnswer) => void)[] = [];

  readonly ask = (version: string): Promise<RestartAnswer> => {
    this.asked.push(version);
    return new Promise((answer) => this.pending.push(answer));
  };

  answer(answer: RestartAnswer): void {
    const next = this.pending.shift();
    if (next === undefined) throw new Error('no question is open');
    next(answer);
  }
}

function setUp(overrides: Partial<AppUpdatesOptions> = {}) {
  const updater = new FakeUpdater();
  const questions = new FakeQuestions();
  const warnings: string[] = [];
  const scheduled: { check: () => void; intervalMs: number; stopped: boolean }[] = [];
  let loads = 0;
  const options: AppUpdatesOptions = {
    isPackaged: true,
    feedConfigured: true,
    loadUpdater: async () => {
      loads += 1;
      return updater;
    },
    askToRestart: questions.ask,
    warn: (message) => warnings.push(message),
    schedule: (check, intervalMs) => {
      const entry = { check, intervalMs, stopped: false };
      scheduled.push(entry);
      return { stop: () => (entry.stopped = true) };
    },
    ...overrides,
  };
  return { updater, questions, warnings, scheduled, options, loads: () => loads };
}

/** Lets the promise callbacks queued by an event run. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await Promise.resolve();
}

describe('when the app checks for updates', () => {
  it('never in development, and without loading electron-updater', async () => {
    const { options, loads, scheduled } = setUp({ isPackaged: false });
    const updates = await startAppUpdates(options);
    expect(updates).toEqual({ enabled: false, reason: expect.stringMatching(/development/) });
    expect(loads()).toBe(0);
    expect(scheduled).toEqual([]);
  });

  it('never when the installed app carries no feed', async () => {
    const { options, loads } = setUp({ feedConfigured: false });
    const updates = await startAppUpdates(options);
    expect(updates).toEqual({ enabled: false, reason: expect.stringMatching(/no update feed/) });
    expect(loads()).toBe(0);
  });

  it('at start and then on a timer, downloading in the background', async () => {
    const { options, updater, scheduled } = setUp();
    const updates = await startAppUpdates(options);

    expect(updates.enabled).toBe(true);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(updater.checks).toBe(1);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.intervalMs).toBe(UPDATE_CHECK_INTERVAL_MS);
    scheduled[0]!.check();
    expect(updater.checks).toBe(2);

    if (updates.enabled) updates.stop();
    expect(scheduled[0]!.stopped).toBe(true);
  });
});

describe('a downloaded update', () => {
  it('restarts into the new version only when the person says so', async () => {
    const { options, updater, questions } = setUp();
    await startAppUpdates(options);

    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(questions.asked).toEqual(['0.2.0']);
    await settle();
    expect(updater.installs).toBe(0);

    questions.answer('restart');
    await settle();
    expect(updater.installs).toBe(1);
  });

  it('waits for the quit when the person says later, and asks once per version', async () => {
    const { options, updater, questions } = setUp();
    await startAppUpdates(options);

    updater.emit('update-downloaded', { version: '0.2.0' });
    questions.answer('later');
    await settle();
    // A later check announces the same download again.
    updater.emit('update-downloaded', { version: '0.2.0' });
    await settle();

    expect(questions.asked).toEqual(['0.2.0']);
    expect(updater.installs).toBe(0);

    updater.emit('update-downloaded', { version: '0.3.0' });
    expect(questions.asked).toEqual(['0.2.0', '0.3.0']);
  });
});

describe('a failed update', () => {
  it('is logged, never asked about, and the next check runs as usual', async () => {
    const { options, updater, questions, warnings, scheduled } = setUp();
    updater.nextCheck = async () => {
      throw new Error('getaddrinfo ENOTFOUND downloads.example.com');
    };
    await startAppUpdates(options);
    await settle();
    updater.emit('error', new Error('sha512 checksum mismatch'));

    expect(warnings).toEqual(['update check failed: getaddrinfo ENOTFOUND downloads.example.com', 'update failed: sha512 checksum mismatch']);
    expect(questions.asked).toEqual([]);
    updater.nextCheck = async () => null;
    scheduled[0]!.check();
    expect(updater.checks).toBe(2);
  });

  it('to ask is logged too, and installs nothing', async () => {
    const { options, updater, warnings } = setUp({
      askToRestart: async () => {
        throw new Error('the window is gone');
      },
    });
    await startAppUpdates(options);
    updater.emit('update-downloaded', { version: '0.2.0' });
    await settle();
    expect(warnings).toEqual(['could not ask about the update to 0.2.0: the window is gone']);
    expect(updater.installs).toBe(0);
  });
});

describe('the question', () => {
  it('names the version, says a running task stops, and defaults to Later', () => {
    const question = restartQuestion('0.2.0');
    expect(question.message).toContain('Sightline 0.2.0');
    expect(question.detail).toMatch(/running task is stopped/);
    expect(question.buttons[question.defaultId]).toBe('Later');
    expect(question.buttons[question.cancelId]).toBe('Later');
    expect(restartAnswer(question.buttons.indexOf('Restart now'))).toBe('restart');
    expect(restartAnswer(question.cancelId)).toBe('later');
  });
});
