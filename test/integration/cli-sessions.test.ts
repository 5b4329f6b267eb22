import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { captureIo } from '../helpers/cli-io.js';
import { SCHEMA_VERSION } from '../../src/main/storage/index.js';
import { createTemporaryHome, makePng, openHomeStorage, seedStorage, type SeededSession, type TemporaryHome } from '../helpers/seed.js';
import { HOSTILE_REASON, HOSTILE_VALUE_TEXT, SeedClock, seedFlowSession, type SeededFlowSession } from '../helpers/seed-timeline.js';

let home: TemporaryHome;
beforeEach(() => {
  home = createTemporaryHome('sightline-cli-sessions');
});
afterEach(() => home.remove());

async function sightline(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo({ SIGHTLINE_HOME: home.root }, home.root);
  const code = await runCli(argv, io);
  return { code, ...io.output };
}

async function seedHome(): Promise<SeededSession[]> {
  const storage = openHomeStorage(home);
  try {
    const seeded = await seedStorage(storage, {
      sessions: 2,
      turnsPerSession: 2,
      stepsPerTurn: 2,
      turnStatus: (_session, turn) => (turn === 0 ? 'finished' : 'failed'),
    });
    const first = seeded[0];
    if (first === undefined) throw new Error('seed failed');
    storage.searchReports.add({
      sessionId: first.session.id,
      turnId: first.turns[0]?.turn.id ?? null,
      question: 'where is the gear icon?',
      queries: ['gear icon'],
      sources: [{ url: 'https://example.com' }],
      answer: 'top right',
    });
    return seeded;
  } finally {
    storage.close();
  }
}

describe('sightline sessions ls', () => {
  it('says there are no sessions yet, and creates nothing, in an empty home', async () => {
    const result = await sightline('sessions', 'ls');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^no sessions yet/);
    expect(existsSync(home.databaseFile)).toBe(false);
    expect((await sightline('sessions', 'ls', '--json')).stdout).toBe('[]\n');
  });

  it('lists the seeded sessions newest first, with their turn and step counts', async () => {
    const seeded = await seedHome();
    const result = await sightline('sessions', 'ls');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+TURNS\s+STEPS\s+CREATED$/);
    expect(lines).toHaveLength(3);
    const [newest, oldest] = [seeded[1], seeded[0]];
    expect(lines[1]).toMatch(new RegExp(`^${newest?.session.id}\\s+Session 2\\s+idle\\s+2\\s+4\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`));
    expect(lines[2]).toMatch(new RegExp(`^${oldest?.session.id}\\s+Session 1\\s+idle\\s+2\\s+4\\s`));
  });

  it('prints JSON and honours --limit', async () => {
    const seeded = await seedHome();
    const json = await sightline('sessions', 'ls', '--json', '--limit', '1');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { id: string; turnCount: number; stepCount: number }[];
    expect(parsed).toEqual([expect.objectContaining({ id: seeded[1]?.session.id, turnCount: 2, stepCount: 4 })]);

    const table = await sightline('sessions', 'ls', '--limit', '1');
    expect(table.stdout).toContain('(1 of 2; use --limit to see more)');
  });

  it('rejects a bad --limit with exit code 2 and a message', async () => {
    for (const bad of ['0', '-3', 'many', '1.5']) {
      const result = await sightline('sessions', 'ls', '--limit', bad);
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toMatch(/whole number of 1 or more/);
    }
    const unknownOption = await sightline('sessions', 'ls', '--colour');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/unknown option/);
  });
});

describe('sightline sessions show', () => {
  it('shows the session, its turns in order and each step with its action and screenshot id', async () => {
    const seeded = await seedHome();
    const target = seeded[0];
    if (target === undefined) throw new Error('seed failed');
    const result = await sightline('sessions', 'show', target.session.id);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const text = result.stdout;
    expect(text).toContain(`Session ${target.session.id}: Session 1`);
    expect(text).toContain('operator browser, model test-model');
    const firstTurn = text.indexOf('Turn 1 (');
    const secondTurn = text.indexOf('Turn 2 (');
    expect(firstTurn).toBeGreaterThan(0);
    expect(secondTurn).toBeGreaterThan(firstTurn);
    expect(text).toContain(`Turn 1 (${target.turns[0]?.turn.id}): finished`);
    expect(text).toContain(`Turn 2 (${target.turns[1]?.turn.id}): failed`);
    expect(text).toContain('request: Request 1.1');
    for (const turn of target.turns) {
      for (const [index, step] of turn.steps.entries()) {
        expect(text).toContain(`${index + 1}. click (${10 + index}, ${20 + index})  [screenshot ${step.screenshotImageId}]`);
      }
    }
    expect(text).toContain('Search reports:');
    expect(text).toContain('where is the gear icon?');

    const other = await sightline('sessions', 'show', seeded[1]?.session.id ?? '');
    expect(other.stdout).not.toContain('Search reports:');
  });

  it('prints each action in the words sightline run uses, and other tools by name, never as raw JSON', async () => {
    const storage = openHomeStorage(home);
    let sessionId: string;
    try {
      const session = storage.sessions.create({ title: 'Words', operator: 'browser', model: 'test-model' });
      const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Invite Alex' });
      const actions = [
        { action: 'click', x: 640.4, y: 233 },
        { action: 'drag', x: 1, y: 2, to_x: 3, to_y: 4 },
        { action: 'type', text: 'alex@example.com' },
        { tool: 'finish', arguments: { summary: 'Invited.', success: true } },
      ] as const;
      for (const action of actions) storage.steps.append({ sessionId: session.id, turnId: turn.id, action });
      storage.turns.end(turn.id, 'finished');
      sessionId = session.id;
    } finally {
      storage.close();
    }
    const result = await sightline('sessions', 'show', sessionId);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('1. click (640, 233)  [no screenshot]');
    expect(result.stdout).toContain('2. drag (1, 2) to (3, 4)  [no screenshot]');
    expect(result.stdout).toContain('3. type "alex@example.com"  [no screenshot]');
    expect(result.stdout).toContain('4. finish  [no screenshot]');
    expect(result.stdout).not.toContain('{"');
  });

  it('names the pictures a person attached to a turn as later turns call them, in the text and the JSON', async () => {
    const storage = openHomeStorage(home);
    let sessionId: string;
    let picture: { id: string; sha256: string };
    try {
      const session = storage.sessions.create({ title: 'With a picture', operator: 'browser', model: 'gpt-test' });
      const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Make the page look like this' });
      const bytes = await makePng({ width: 32, height: 24, seed: 7 });
      picture = await storage.images.put({ sessionId: session.id, turnId: turn.id, bytes, mime: 'image/png', width: 32, height: 24, source: 'user' });
      storage.turns.end(turn.id, 'finished');
      storage.turns.start({ sessionId: session.id, userRequest: 'And now the footer' });
      sessionId = session.id;
    } finally {
      storage.close();
    }
    const name = `[Picture:history_${picture.sha256.slice(0, 16)}]`;
    const result = await sightline('sessions', 'show', sessionId);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('  picture: '))).toEqual([`  picture: ${name} image/png 32×24 (${picture.id})`]);
    // Under the turn it came with, right after that turn's request.
    expect(lines[lines.indexOf('  request: Make the page look like this') + 1]).toBe(`  picture: ${name} image/png 32×24 (${picture.id})`);

    const json = JSON.parse((await sightline('sessions', 'show', sessionId, '--json')).stdout) as { turns: { pictures: unknown[] }[] };
    expect(json.turns.map((turn) => turn.pictures)).toEqual([[{ imageId: picture.id, name, mime: 'image/png', width: 32, height: 24 }], []]);
  });

  it('shows what each step, turn and the session cost: input with its cache reads and writes, and output', async () => {
    const storage = openHomeStorage(home);
    let sessionId: string;
    try {
      const session = storage.sessions.create({ title: 'Cached', operator: 'browser', model: 'claude-test' });
      const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Open the settings' });
      const wait = { action: 'wait', seconds: 1 } as const;
      const step = { sessionId: session.id, turnId: turn.id, action: wait };
      storage.steps.append({ ...step, inputTokens: 2_000, outputTokens: 40, cacheWriteInputTokens: 1_800 });
      storage.steps.append({ ...step, inputTokens: 12_340, outputTokens: 210, cachedInputTokens: 11_900, cacheWriteInputTokens: 300 });
      // A later step of the same reply carries no usage; a provider without a cache reports none.
      storage.steps.append(step);
      storage.steps.append({ ...step, inputTokens: 950, outputTokens: 12 });
      storage.turns.end(turn.id, 'finished');
      sessionId = session.id;
    } finally {
      storage.close();
    }
    const result = await sightline('sessions', 'show', sessionId);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('     tokens: '))).toEqual([
      '     tokens: 2,000 in (1,800 written) · 40 out',
      '     tokens: 12,340 in (11,900 cached, 300 written) · 210 out',
      '     tokens: 950 in · 12 out',
    ]);
    expect(lines.filter((line) => line.startsWith('  tokens: '))).toEqual([
      '  tokens: 15,290 in (11,900 cached, 2,100 written) · 262 out',
      '  tokens: 15,290 in (11,900 cached, 2,100 written) · 262 out',
    ]);
    // The session's line comes before its turns, the turn's before its steps.
    expect(result.stdout.indexOf('  tokens: 15,290')).toBeLessThan(result.stdout.indexOf('Turn 1 ('));
    expect(lines[lines.indexOf('  3. wait 1s  [no screenshot]') + 1]).toBe('  4. wait 1s  [no screenshot]');

    const json = JSON.parse((await sightline('sessions', 'show', sessionId, '--json')).stdout) as {
      session: { tokens: Record<string, number | null> };
      turns: { tokens: Record<string, number>; steps: { inputTokens: number | null; cachedInputTokens: number | null; cacheWriteInputTokens: number | null }[] }[];
    };
    expect(json.session.tokens).toEqual({ input: 15_290, output: 262, cachedInput: 11_900, cacheWriteInput: 2_100, sent: null, keepEverything: null });
    expect(json.turns[0]?.tokens).toEqual({ input: 15_290, output: 262, cachedInput: 11_900, cacheWriteInput: 2_100 });
    expect(json.turns[0]?.steps.map((step) => [step.inputTokens, step.cachedInputTokens, step.cacheWriteInputTokens])).toEqual([
      [2_000, null, 1_800],
      [12_340, 11_900, 300],
      [null, null, null],
      [950, null, null],
    ]);
  });

  it("shows a flow session: its flow, each turn's step kind, verdicts and reasons, the value as JSON, the evidence, in text and JSON (issue 25)", async () => {
    const clock = new SeedClock();
    const storage = openHomeStorage(home, { clock: clock.now });
    let flow: SeededFlowSession;
    let forged: string;
    try {
      flow = await seedFlowSession(storage, clock, { width: 320, height: 200 });
      // A reason that tries to retitle the terminal and forge a line of its own.
      const turn = storage.turns.start({ sessionId: flow.session.id, userRequest: 'The title is right', stepKind: 'assert' });
      forged = storage.turns.end(turn.id, 'finished', { kind: 'verdict', value: true, reason: 'Right.\x1b]0;pwned\x07\n  verdict: forged', evidence: [] }).id;
    } finally {
      storage.close();
    }
    const [doTurn, passed, extracted, condition, failed, waited] = flow.turns;
    const result = await sightline('sessions', 'show', flow.session.id);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const text = result.stdout;
    expect(text).toContain(`Session ${flow.session.id}: Flow team-smoke\n  flow team-smoke\n`);
    const turnText = (id: string | undefined): string => {
      const start = text.indexOf(`(${id})`);
      const end = text.indexOf('\nTurn ', start);
      return text.slice(start, end === -1 ? undefined : end);
    };
    expect(turnText(doTurn?.id)).toContain('finished\n  step: do\n  request: Open the Team page\n  started');
    expect(turnText(passed?.id)).toContain(
      `finished\n  step: assert\n  request: The member list shows five people\n  assertion: passed\n  reason: Five member rows are listed, from Dana Whitfield to Jon Alvarez.\n  evidence: ${flow.coldEvidence.id}, ${flow.membersFrame.id}\n`,
    );
    // The reason is not printed twice as the summary.
    expect(turnText(passed?.id)).not.toContain('summary:');
    const json = JSON.stringify(flow.extracted, null, 2).split('\n').map((line) => `    ${line}`).join('\n');
    expect(turnText(extracted?.id)).toContain(`  step: extract\n  request: The members and their roles\n  extracted value:\n${json}\n  reason: Read from the member list.\n`);
    expect(turnText(extracted?.id)).toContain(HOSTILE_VALUE_TEXT);
    expect(turnText(condition?.id)).toContain('  step: if\n  request: An invite dialog is open\n  condition: false\n');
    expect(turnText(failed?.id)).toContain(`  assertion: failed\n  reason: ${HOSTILE_REASON}\n  evidence: ${flow.membersFrame.id}\n`);
    expect(turnText(waited?.id)).toContain('  step: wait_for\n  request: The invite field is shown\n  wait: met\n');
    // The model's control characters are shown escaped, and its line break cannot start a line.
    expect(turnText(forged)).toContain('  reason: Right.\\x1b]0;pwned\\x07\\n  verdict: forged\n  evidence: none named\n');
    expect(text).not.toContain('\x1b');

    const detail = JSON.parse((await sightline('sessions', 'show', flow.session.id, '--json')).stdout) as {
      session: { flowName: string | null };
      turns: { id: string; stepKind: string | null; answer: { kind: string; value: unknown; reason: string; evidence: string[] } | null }[];
    };
    expect(detail.session.flowName).toBe('team-smoke');
    expect(detail.turns.map((turn) => turn.stepKind)).toEqual(['do', 'assert', 'extract', 'if', 'assert', 'wait_for', 'assert']);
    expect(detail.turns[0]?.answer).toBeNull();
    expect(detail.turns[1]?.answer).toEqual({ kind: 'verdict', value: true, reason: 'Five member rows are listed, from Dana Whitfield to Jon Alvarez.', evidence: [flow.coldEvidence.id, flow.membersFrame.id] });
    expect(detail.turns[2]?.answer?.value).toEqual(flow.extracted);
    // JSON stays exact: the reason as stored, control characters and all.
    expect(detail.turns[6]?.answer?.reason).toBe('Right.\x1b]0;pwned\x07\n  verdict: forged');
  });

  it('prints no flow, step or answer lines for a session that is not a flow', async () => {
    const seeded = await seedHome();
    const text = (await sightline('sessions', 'show', seeded[0]?.session.id ?? '')).stdout;
    expect(text).not.toMatch(/^ {2}(flow|step:|evidence:|reason:)/m);
    const detail = JSON.parse((await sightline('sessions', 'show', seeded[0]?.session.id ?? '', '--json')).stdout) as { session: { flowName: unknown }; turns: { stepKind: unknown; answer: unknown }[] };
    expect(detail.session.flowName).toBeNull();
    expect(detail.turns.map((turn) => [turn.stepKind, turn.answer])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('accepts the id without its prefix, and prints JSON', async () => {
    const seeded = await seedHome();
    const id = seeded[1]?.session.id ?? '';
    const bare = await sightline('sessions', 'show', id.replace(/^ses_/, '').toUpperCase(), '--json');
    expect(bare.code).toBe(0);
    const detail = JSON.parse(bare.stdout) as {
      session: { id: string };
      turns: { sequence: number; steps: { screenshotImageId: string }[] }[];
      searchReports: unknown[];
    };
    expect(detail.session.id).toBe(id);
    expect(detail.turns.map((turn) => turn.sequence)).toEqual([1, 2]);
    expect(detail.turns[0]?.steps.map((step) => step.screenshotImageId)).toEqual(
      seeded[1]?.turns[0]?.steps.map((step) => step.screenshotImageId),
    );
    expect(detail.searchReports).toEqual([]);
  });

  it('names an unknown or malformed id clearly and exits 2', async () => {
    await seedHome();
    const unknown = await sightline('sessions', 'show', 'ses_000000000000');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no session ses_000000000000');
    const malformed = await sightline('sessions', 'show', 'yesterday');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('"yesterday" is not a session id');
    const missingArgument = await sightline('sessions', 'show');
    expect(missingArgument.code).toBe(2);
    expect(missingArgument.stderr).toMatch(/missing required argument/);
  });
});

describe('sightline sessions, everywhere else', () => {
  it('has --help on every command', async () => {
    for (const argv of [['sessions'], ['sessions', 'ls'], ['sessions', 'show']]) {
      const result = await sightline(...argv, '--help');
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/Usage: sightline sessions/);
    }
  });

  it('uses the --home flag over SIGHTLINE_HOME', async () => {
    await seedHome();
    const elsewhere = createTemporaryHome('sightline-cli-elsewhere');
    try {
      const result = await sightline('--home', elsewhere.root, 'sessions', 'ls');
      expect(result.stdout).toMatch(/^no sessions yet/);
    } finally {
      elsewhere.remove();
    }
  });

  it('refuses a database from a newer Sightline with a clear message and exit code 1', async () => {
    const database = new BetterSqlite3(home.databaseFile);
    database.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    database.close();
    const result = await sightline('sessions', 'ls');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/upgrade Sightline/);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
