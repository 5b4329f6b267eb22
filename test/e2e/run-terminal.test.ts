/**
 * `sightline run` at a real terminal (a pseudo-terminal from util-linux `script`): a risky action is put
 * to the person as "Allow …? [y/N]" and runs when they answer y, the model's question is answered at the
 * prompt, and Ctrl+C typed at a prompt stops the turn (exit 3) like Ctrl+C anywhere else.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { scriptedMoves, summarizeRequest } from '../helpers/scripted-computer-model.js';

import { REPO_ROOT } from './support/sightline-process.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { builtCli } from '../helpers/built-cli.js';

const canRun = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

const environment = useRunEnvironment('sightline-run-terminal');

interface Exchange {
  /** When the output so far contains this … */
  when: string;
  /** … type this (a carriage return is Enter, \x03 is Ctrl+C). */
  type: string;
}

/** Runs sightline in a pseudo-terminal, typing each answer when its prompt appears; returns the exit code and what was shown. */
function runAtTerminal(task: string, exchanges: Exchange[]): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, builtCli(), '--home', environment.home.root, 'run', JSON.stringify(task),
    '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl].join(' ');
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPENAI_') && !name.startsWith('SIGHTLINE_')));
  const terminal = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], { cwd: REPO_ROOT, env });
  let screen = '';
  const pending = [...exchanges];
  terminal.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    const next = pending[0];
    if (next !== undefined && screen.includes(next.when)) {
      pending.shift();
      terminal.stdin.write(next.type);
    }
  });
  return new Promise((resolve, reject) => {
    terminal.once('error', reject);
    terminal.once('close', (code) => resolve({ code: code ?? -1, screen }));
  });
}

describe.skipIf(!canRun)('sightline run at a terminal', () => {
  it('asks before a risky action and runs it on y; answers the model at the prompt', { timeout: 60_000 }, async () => {
    const seen: string[] = [];
    environment.model.script(
      scriptedMoves(
        [{ action: { action: 'key', keys: 'Delete' } }, { tool: 'ask_user', arguments: { question: 'Which team is this for?' } }, { finish: 'Done.' }],
        (summary) => seen.push(summary.text),
      ),
    );
    const result = await runAtTerminal('Press Delete', [
      { when: '[y/N]', type: 'y\r' },
      { when: 'your answer>', type: 'Platform\r' },
    ]);
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toContain('Allow key Delete (key combination Delete may delete something)? [y/N]');
    expect(result.screen).toMatch(/step 1 {2}key Delete {2}ok/);
    expect(result.screen).toContain('the model asks: Which team is this for?');
    expect(seen.at(-1)).toContain('Platform');
    expect(summarizeRequest(environment.model.requests.at(-1)!).images).toBeGreaterThan(0);
  });

  it('stops the turn when Ctrl+C is typed at the prompt', { timeout: 60_000 }, async () => {
    environment.model.script(scriptedMoves([{ action: { action: 'key', keys: 'Delete' } }, { finish: 'Done.' }]));
    const result = await runAtTerminal('Press Delete', [{ when: '[y/N]', type: '\x03' }]);
    expect(result.code, result.screen).toBe(3);
    expect(result.screen).toContain('stopping');
    expect(result.screen).not.toMatch(/step \d+ {2}key Delete {2}ok/);
  });
});
