/**
 * What the demo's closing summary reports, read back from the stored session rather than counted from the
 * run's output: what a person finds with `sightline sessions show` is what the summary said.
 *
 * What the session cost is what its steps recorded (the model's reported usage, priced when each call was
 * made: the cost `sessions show` prints). What it would have cost with every image kept adds the input the
 * kept images would have made: each step stores the request builder's estimate of its request as sent and
 * of the same request with every image whole (the accounting `npm run bench` uses), and the difference is
 * priced at the model profile's input price (src/shared/pricing.ts).
 */
import { callCost } from '../src/shared/cost.js';
import { imageSavings, type ImageSavings } from '../src/shared/image-savings.js';
import type { ModelPricing } from '../src/shared/pricing.js';
import { resolveModelProfile } from '../src/main/llm/model-profiles.js';
import type { StepRecord, Storage } from '../src/main/storage/index.js';

export const RECALL_TOOL = 'get_history_image';

export interface SessionFigures {
  model: string;
  /** Screenshots the agent took: those it stored, and the unchanged ones it did not store again. */
  screenshotsTaken: number;
  /** Screenshots the same as the last stored one: the model got a line of text instead of the image. */
  unchanged: number;
  /** Screenshots of ended turns folded to placeholders, their files moved to cold storage. */
  folded: number;
  /** Earlier screenshots the model asked back for by id (get_history_image), and got. */
  recalled: number;
  /** The session's tokens as its model calls reported them. */
  tokens: { input: number; output: number };
  /** Input tokens every image kept whole would have added: the builder's estimates, with every image less as sent. */
  keptImagesInput: number;
  /** The input against every image kept whole, as the timeline, `sessions show` and the report compute it. */
  savings: ImageSavings | null;
  /** What the session cost, and would have cost with every image kept; undefined when no price is known. */
  dollars: { spent: number; keepEverything: number } | undefined;
  pricing: ModelPricing | undefined;
}

export function sessionFigures(storage: Storage, sessionId: string): SessionFigures {
  const session = storage.sessions.get(sessionId);
  if (session === undefined) throw new Error(`there is no session ${sessionId}`);
  const model = session.model ?? '';
  const steps = storage.steps.listBySession(sessionId);
  const screenshots = storage.images.listBySession(sessionId).filter((image) => image.source === 'browser' || image.source === 'screen');
  const unchanged = steps.filter((step) => step.dedupOfImageId !== null).length;
  const totals = storage.steps.tokenTotals(sessionId);
  const keptImagesInput = Math.max(0, (totals.keepEverything ?? 0) - (totals.sent ?? 0));
  const spent = storage.steps.costTotals(sessionId).dollars;
  const pricing = resolveModelProfile(model).pricing;
  return {
    model,
    screenshotsTaken: screenshots.length + unchanged,
    unchanged,
    folded: screenshots.filter((image) => image.zone === 'offloaded').length,
    recalled: steps.filter(isRecall).length,
    tokens: { input: totals.input, output: totals.output },
    keptImagesInput,
    savings: imageSavings(totals),
    dollars: pricing === undefined || spent === null ? undefined : {
      spent,
      keepEverything: spent + callCost({ inputTokens: keptImagesInput, outputTokens: 0 }, pricing),
    },
    pricing,
  };
}

function isRecall(step: StepRecord): boolean {
  const result = step.result as { ok?: unknown } | null;
  return 'tool' in step.action && step.action.tool === RECALL_TOOL && result?.ok === true;
}
