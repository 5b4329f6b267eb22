/**
 * A database damaged after it opened fine (issue 17, finding 10): a table's root page overwritten between two
 * turns, which opening does not read, so the next `sightline run` meets it mid-turn (the steps table) or
 * before the turn (the turns table), and `sightline sessions show` while reading. Both end with the guided message that opening a damaged database
 * gives (what happened, that Sightline wrote nothing more, how to keep the file), exit 1, never "unexpected
 * error" and no stack.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { runCli } from '../../src/main/cli/program.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { captureIo } from '../helpers/cli-io.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { useRunEnvironment } from '../helpers/run-environment.js';

const environment = useRunEnvironment('sightline-damaged-database');

async function cli(...argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const io = captureIo();
  const exitCode = await runCli(['--home', environment.home.root, ...argv], io);
  return { exitCode, ...io.output };
}

function run(task: string, ...extra: string[]) {
  return cli('run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--json', ...extra);
}

/** Overwrites the root page of a table with bytes no b-tree page starts with. */
function damageTable(databaseFile: string, table: string): void {
  const inspect = new BetterSqlite3(databaseFile);
  // Everything into the main file first: a page still in the WAL would be read from there, undamaged.
  inspect.pragma('wal_checkpoint(TRUNCATE)');
  const rootPage = (inspect.prepare("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { rootpage: number }).rootpage;
  const pageSize = inspect.pragma('page_size', { simple: true }) as number;
  inspect.close();
  const file = openSync(databaseFile, 'r+');
  try {
    writeSync(file, Buffer.alloc(pageSize, 0xff), 0, pageSize, (rootPage - 1) * pageSize);
  } finally {
    closeSync(file);
  }
}

function expectGuided(output: { exitCode: number; stderr: string }, databaseFile: string): void {
  expect(output.exitCode, output.stderr).toBe(1);
  expect(output.stderr).toContain(`The database ${databaseFile} is damaged`);
  expect(output.stderr).toContain('SQLITE_CORRUPT');
  expect(output.stderr).toContain('wrote nothing more to it');
  expect(output.stderr).toContain(`mv "${databaseFile}" "${databaseFile}.broken"`);
  expect(output.stderr).not.toContain('unexpected error');
  expect(output.stderr).not.toMatch(/^\s+at /m);
}

async function firstTurn(): Promise<string> {
  environment.model.script(scriptedMoves([{ action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } }, { finish: 'Clicked the name field.' }]));
  const first = await run('Click the team name field');
  expect(first.exitCode, first.stderr).toBe(0);
  const events = first.stdout.split('\n').filter((line) => line !== '').map((line) => AgentEventSchema.parse(JSON.parse(line)));
  const sessionId = events.find((event): event is Extract<AgentEvent, { type: 'turn-started' }> => event.type === 'turn-started')?.sessionId;
  expect(sessionId).toBeDefined();
  return sessionId!;
}

describe('a database page damaged between two turns', () => {
  it('fails the next turn with the guided message when a step cannot be written, the turn ended as failed', { timeout: 60_000 }, async () => {
    const sessionId = await firstTurn();
    const databaseFile = environment.home.databaseFile;
    damageTable(databaseFile, 'steps');

    environment.model.script(scriptedMoves([{ action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } }, { finish: 'Done.' }]));
    const next = await run('Check the name', '--session', sessionId);
    expectGuided(next, databaseFile);
    const ended = next.stdout.split('\n').filter((line) => line !== '').map((line) => AgentEventSchema.parse(JSON.parse(line))).find((event) => event.type === 'turn-ended');
    expect(ended).toMatchObject({ status: 'failed' });
  });

  it('ends run and sessions show with the guided message when the turns themselves cannot be read, never "unexpected error"', { timeout: 60_000 }, async () => {
    const sessionId = await firstTurn();
    const databaseFile = environment.home.databaseFile;
    damageTable(databaseFile, 'turns');
    const damaged = readFileSync(databaseFile);

    environment.model.script(scriptedMoves([{ finish: 'Done.' }]));
    expectGuided(await run('Check the name', '--session', sessionId), databaseFile);
    expectGuided(await cli('sessions', 'show', sessionId), databaseFile);
    // Nothing was written over the damage: the file is byte for byte what it was, for `.recover` to work on.
    expect(readFileSync(databaseFile).equals(damaged)).toBe(true);
  });
});
