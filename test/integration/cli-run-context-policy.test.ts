/**
 * `sightline run --context-policy`: the policy chosen on the command line (or in SIGHTLINE_CONTEXT_POLICY)
 * is the one the real run's requests are built with, as the fake model server receives them.
 */
import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../../src/shared/events.js';
import { runCli } from '../../src/main/cli/program.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { captureIo } from '../helpers/cli-io.js';
import { scriptedMoves, type RequestSummary, type ScriptedMove } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';
import { useRunEnvironment } from '../helpers/run-environment.js';

const environment = useRunEnvironment('sightline-cli-run-context-policy');

function browserArgs(task: string, ...extra: string[]): string[] {
  return ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--json', ...extra];
}

async function run(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ exitCode: number; stderr: string; sessionId: string | undefined }> {
  const io = captureIo(env);
  const exitCode = await runCli(argv, io);
  const first = io.output.stdout.split('\n').find((line) => line !== '');
  const sessionId = first === undefined ? undefined : AgentEventSchema.parse(JSON.parse(first)).sessionId;
  return { exitCode, stderr: io.output.stderr, sessionId };
}

function script(moves: ScriptedMove[]): RequestSummary[] {
  const seen: RequestSummary[] = [];
  environment.model.script(scriptedMoves(moves, (summary) => seen.push(summary)));
  return seen;
}

/** Four model calls, each after a screen that changed: the running turn holds three screenshots by the last. */
const nameTheTeam: ScriptedMove[] = [
  { action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } },
  { action: { action: 'type', text: 'Platform' } },
  { action: { action: 'click', ...SANDBOX_LAYOUT.saveButton } },
  { finish: 'Named the team Platform and saved.' },
];

describe('sightline run --context-policy', () => {
  it('sends every screenshot of the running turn by default (sightline)', async () => {
    const requests = script(nameTheTeam);
    const result = await run(browserArgs('Name the team Platform'));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(requests.map((request) => request.images)).toEqual([1, 2, 3, 4]);
  });

  it('with keep-last:1 sends one image per request, in the running turn and after an earlier one', async () => {
    const first = script(nameTheTeam);
    const firstRun = await run(browserArgs('Name the team Platform', '--context-policy', 'keep-last:1'));
    expect(firstRun.exitCode, firstRun.stderr).toBe(0);
    expect(first.map((request) => request.images)).toEqual([1, 1, 1, 1]);

    const second = script([{ action: { action: 'click', ...SANDBOX_LAYOUT.weeklySummaryBox } }, { finish: 'Ticked it.' }]);
    const secondRun = await run(browserArgs('Tick the weekly summary', '--context-policy', 'keep-last:1', '--session', firstRun.sessionId!));
    expect(secondRun.exitCode, secondRun.stderr).toBe(0);
    expect(second.map((request) => request.images)).toEqual([1, 1]);
    expect(second[0]!.text).toContain('Name the team Platform');
  });

  it('with keep-all from SIGHTLINE_CONTEXT_POLICY shows the earlier turn\'s screenshots whole after compaction', async () => {
    script(nameTheTeam);
    const firstRun = await run(browserArgs('Name the team Platform'), { SIGHTLINE_CONTEXT_POLICY: 'keep-all' });
    expect(firstRun.exitCode, firstRun.stderr).toBe(0);

    const second = script([{ finish: 'Done already.' }]);
    const secondRun = await run(browserArgs('Is the team named?', '--session', firstRun.sessionId!), { SIGHTLINE_CONTEXT_POLICY: 'keep-all' });
    expect(secondRun.exitCode, secondRun.stderr).toBe(0);
    // The first turn's four screenshots (compacted to cold storage when it ended) and the second turn's first.
    expect(second[0]!.images).toBe(5);
    const storage = openHomeStorage(environment.home);
    const offloaded = storage.images.listBySession(firstRun.sessionId!).filter((image) => image.zone === 'offloaded');
    storage.close();
    expect(offloaded.length).toBeGreaterThan(0);
    for (const image of offloaded) {
      expect(second[0]!.text).toContain(`<${image.id}>`);
      expect(second[0]!.text).not.toContain(`[Visual_Placeholder: ${image.id}]`);
    }
  });

  it('refuses a policy it does not know with exit 2, naming the flag and the forms it takes', async () => {
    const result = await run(browserArgs('Name the team', '--context-policy', 'keep-last:0'));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('context.policy: expected sightline, keep-all or keep-last:N');
    expect(result.stderr).toContain('got "keep-last:0" (from --context-policy)');
    expect(environment.model.requests).toHaveLength(0);
  });
});
