/**
 * `npm run demo`: Sightline end to end with no network and no API key. A scripted model (a local
 * OpenAI-compatible server) drives the browser operator on the bundled sandbox page over four turns of one
 * session, each a real `sightline run` (in-process), continued with --session (demo-session.ts). Prints what
 * each turn did, then what Sightline did with the screenshots (unchanged, folded, recalled) and what the
 * session would have cost with every image kept, the session id and where the data lives.
 *
 * Data goes to SIGHTLINE_HOME when set, else to a new temporary folder (kept, so it can be inspected).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxState } from './sandbox-server.js';
import { runDemoSession } from './demo-session.js';

const write = (text: string): void => {
  process.stdout.write(text);
};

async function main(): Promise<number> {
  const started = Date.now();
  const home = process.env.SIGHTLINE_HOME?.trim() || mkdtempSync(join(tmpdir(), 'sightline-demo-'));
  const { sessionId, failures, pageState } = await runDemoSession({ home, write });

  write(`Session ${sessionId ?? '(none)'}\n`);
  write(`Page state, as the sandbox page saved it: ${describeState(pageState)}\n`);
  write(`Data: ${home} (sightline.db, blobs/ for screenshots, cold-storage/ for folded ones)\n`);
  if (sessionId) write(`Look inside: npm run sightline -- sessions show ${sessionId} --home ${home}\n`);
  write(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s${failures > 0 ? `, ${failures} turn(s) did not finish` : ''}.\n`);
  return failures > 0 ? 1 : 0;
}

function describeState(state: SandboxState): string {
  const members = state.members.length === 0 ? 'none' : state.members.join(', ');
  return `team name "${state.teamName}", weekly summary ${state.weeklySummary ? 'on' : 'off'}, plan ${state.plan}, members: ${members}`;
}

process.exitCode = await main();
