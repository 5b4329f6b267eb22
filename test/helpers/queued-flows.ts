/**
 * What the queue's end-to-end tests run (flow-queue.test.ts, team-store.test.ts): one-assertion browser flows whose
 * page is given to the workers only (`${env.PAGE_URL}`, which they must be let read), and a fake model that says every assertion holds, except
 * that the first request naming a latch is never answered, so a test can kill the worker holding that flow.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedReply } from './fake-openai-server.js';
import { scriptedMoves, summarizeRequest } from './scripted-computer-model.js';

/** A worker reads the page's address from its environment only when its owner allows it (worker.allowEnv). */
export const WORKER_READS_PAGE_URL = { SIGHTLINE_WORKER_ALLOW_ENV: 'PAGE_URL' } as const;

/** The text a flow's assertion carries to be held by `answeringModel`. */
export const LATCH = 'HANG-LATCH';

/** A flow file in `folder` with one assertion; `${env.PAGE_URL}` is read on the worker. */
export function queuedFlowFile(folder: string, name: string, assertion: string): string {
  const path = join(folder, `${name.toLowerCase().replace(/\s+/g, '-')}.flow.yaml`);
  writeFileSync(path, `name: ${name}\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - assert: ${assertion}\n`);
  return path;
}

/** One model reply: the assertion holds. */
export function answerTrue(): ScriptedReply {
  return scriptedMoves([{ tool: 'answer', arguments: { verdict: true, reason: 'The page shows the cart.', evidence: [] } }])[0]!;
}

/** Every assertion answered true, except that the first request naming LATCH never gets an answer (`onHang` is told). */
export function answeringModel(onHang: () => void, replies = 40): ScriptedReply[] {
  let hung = false;
  const answer = answerTrue();
  return Array.from({ length: replies }, () => (request: RecordedRequest) => {
    if (!hung && summarizeRequest(request).text.includes(LATCH)) {
      hung = true;
      onHang();
      return { type: 'hang' };
    }
    return answer(request);
  });
}
