/**
 * `npm run demo`: Sightline end to end with no network and no API key. A scripted model (a local
 * OpenAI-compatible server) drives the browser operator on the bundled sandbox page over three turns of
 * one session, each a real `sightline run` (in-process), continued with --session. Prints the session
 * id, what each turn did, the token figures and where the data lives.
 *
 * Data goes to SIGHTLINE_HOME when set, else to a new temporary folder (kept, so it can be inspected).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentEventSchema, type AgentEvent } from '../src/shared/events.js';
import { runCli } from '../src/main/cli/program.js';
import type { CliIo } from '../src/main/cli/io.js';
import { startFakeOpenAiServer } from '../test/helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../test/helpers/scripted-computer-model.js';
import { DEMO_TURNS } from './demo-script.js';
import { startSandboxServer, type SandboxState } from './sandbox-server.js';

const DEMO_MODEL = 'gpt-4.1';

interface TurnReport {
  exitCode: number;
  events: AgentEvent[];
  requests: RequestSummary[];
}

const write = (text: string): void => {
  process.stdout.write(text);
};

async function main(): Promise<number> {
  const started = Date.now();
  const home = process.env.SIGHTLINE_HOME?.trim() || mkdtempSync(join(tmpdir(), 'sightline-demo-'));
  const model = await startFakeOpenAiServer();
  const sandbox = await startSandboxServer();
  write(`Sightline demo: a scripted model drives the browser operator on ${sandbox.url}\n`);
  write(`(model endpoint ${model.baseUrl}, no network, no API key; data in ${home})\n\n`);

  let sessionId: string | undefined;
  let failures = 0;
  try {
    for (const [index, turn] of DEMO_TURNS.entries()) {
      write(`Turn ${index + 1}: ${turn.task}\n`);
      const requests: RequestSummary[] = [];
      model.script(scriptedMoves(turn.moves, (summary) => requests.push(summary)));
      const argv = ['run', turn.task, '--home', home, '--operator', 'browser', '--url', sandbox.url];
      argv.push('--base-url', model.baseUrl, '--model', DEMO_MODEL, '--json', ...(sessionId ? ['--session', sessionId] : []));
      const report = await runTurn(argv, requests);
      sessionId ??= report.events[0]?.sessionId;
      if (report.exitCode !== 0) failures += 1;
      write(describeTurn(report));
    }
  } finally {
    await sandbox.close();
    await model.close();
  }

  write(`Session ${sessionId ?? '(none)'}\n`);
  write(`Page state, as the sandbox page saved it: ${describeState(sandbox.state())}\n`);
  write(`Data: ${home} (sightline.db, blobs/ for screenshots, cold-storage/ for folded ones)\n`);
  if (sessionId) write(`Look inside: npm run sightline -- sessions show ${sessionId} --home ${home}\n`);
  write(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s${failures > 0 ? `, ${failures} turn(s) did not finish` : ''}.\n`);
  return failures > 0 ? 1 : 0;
}

/** One `sightline run`, in-process: events come back as JSON lines, progress lines are shown as they come. */
async function runTurn(argv: string[], requests: RequestSummary[]): Promise<TurnReport> {
  let stdout = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => write(text.replace(/^(?=.)/gm, '    ')),
    env: demoEnvironment(),
    cwd: process.cwd(),
    isInteractive: false,
  };
  const exitCode = await runCli(argv, io);
  const events = stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => AgentEventSchema.parse(JSON.parse(line)));
  return { exitCode, events, requests };
}

function describeTurn(report: TurnReport): string {
  const ended = report.events.find((event) => event.type === 'turn-ended');
  const screenshots = report.events.filter((event) => event.type === 'screenshot');
  const unchanged = screenshots.filter((event) => event.unchangedFrom !== undefined).length;
  const imagesSent = report.requests.reduce((sum, request) => sum + request.images, 0);
  const lines = [
    `  → exit ${report.exitCode}, ${ended ? `${ended.status} in ${ended.steps} steps` : 'no turn end reported'}`,
    ended ? `    tokens: ${count(ended.usage.inputTokens)} input, ${count(ended.usage.outputTokens)} output` : undefined,
    `    model calls: ${report.requests.length}, images sent: ${imagesSent}, screenshots taken: ${screenshots.length} (${unchanged} unchanged, reused)`,
  ];
  return `${lines.filter((line) => line !== undefined).join('\n')}\n\n`;
}

function describeState(state: SandboxState): string {
  const members = state.members.length === 0 ? 'none' : state.members.join(', ');
  return `team name "${state.teamName}", weekly summary ${state.weeklySummary ? 'on' : 'off'}, plan ${state.plan}, members: ${members}`;
}

/** The user's environment without model settings, so a real key or endpoint in it is neither used nor sent. */
function demoEnvironment(): Record<string, string | undefined> {
  const entries = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('OPENAI_') && !(name.startsWith('SIGHTLINE_') && name !== 'SIGHTLINE_BROWSER_PATH'),
  );
  return Object.fromEntries(entries);
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

process.exitCode = await main();
