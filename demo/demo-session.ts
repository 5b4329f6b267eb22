/**
 * The demo's session, without its printing of where things are: a scripted model (a local OpenAI-compatible
 * server) drives the browser operator on the bundled sandbox page over the turns of demo-script.ts, each a
 * real `sightline run` (in-process), continued with --session; then the summary of what happened to the
 * screenshots, read back from the stored session. `npm run demo` runs it, and so does its test.
 */
import { AgentEventSchema, type AgentEvent } from '../src/shared/events.js';
import { runCli } from '../src/main/cli/program.js';
import type { CliIo } from '../src/main/cli/io.js';
import { homeAt } from '../src/main/config/home.js';
import { openStorage } from '../src/main/storage/index.js';
import { startFakeOpenAiServer } from '../test/helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../test/helpers/scripted-computer-model.js';
import { DEMO_TURNS } from './demo-script.js';
import { startSandboxServer, type SandboxState } from './sandbox-server.js';
import { sessionFigures, type SessionFigures } from './session-figures.js';
import { summaryText } from './summary-text.js';

export const DEMO_MODEL = 'gpt-4.1';

export interface DemoSessionOptions {
  /** The Sightline home the session is stored in. */
  home: string;
  /** Where the demo's lines go, as they come. */
  write: (text: string) => void;
}

export interface DemoSession {
  sessionId: string | undefined;
  /** Turns that did not end with exit 0. */
  failures: number;
  /** The page's state as the sandbox page last saved it. */
  pageState: SandboxState;
  /** What the summary reported; undefined when no session was started. */
  figures: SessionFigures | undefined;
}

interface TurnReport {
  exitCode: number;
  events: AgentEvent[];
  requests: RequestSummary[];
}

export async function runDemoSession(options: DemoSessionOptions): Promise<DemoSession> {
  const { home, write } = options;
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
      const report = await runTurn(argv, requests, write);
      sessionId ??= report.events[0]?.sessionId;
      if (report.exitCode !== 0) failures += 1;
      write(describeTurn(report));
    }
  } finally {
    await sandbox.close();
    await model.close();
  }

  const figures = sessionId === undefined ? undefined : readFigures(home, sessionId);
  if (figures !== undefined) write(`${summaryText(figures)}\n`);
  return { sessionId, failures, pageState: sandbox.state(), figures };
}

function readFigures(home: string, sessionId: string): SessionFigures {
  const { databaseFile, blobsDirectory, coldStorageDirectory } = homeAt(home);
  const storage = openStorage({ databaseFile, blobsDirectory, coldStorageDirectory });
  try {
    return sessionFigures(storage, sessionId);
  } finally {
    storage.close();
  }
}

/** One `sightline run`, in-process: events come back as JSON lines, progress lines are shown as they come. */
async function runTurn(argv: string[], requests: RequestSummary[], write: (text: string) => void): Promise<TurnReport> {
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
