/**
 * Sightline's TypeScript SDK (the package's main export): scripted automation with the agent's visual memory.
 *
 *   const agent = await Sightline.launch({ url: 'https://shop.example/cart', model: 'gpt-4.1' });
 *   await agent.do('Add one apple to the cart');
 *   await agent.assert('The cart shows exactly one apple');
 *   const total = await agent.extract('the cart total', z.object({ amount: z.number() }));
 *   await agent.close();
 *
 * Folders outside automation/ use it through this file only.
 */
export { Sightline, type ConfirmationQuestion, type ConnectOptions, type SightlineOptions } from './sightline.js';
export { SightlineAgent, type EventListener, type ReplayOption, type StepOptions, type WaitForOptions } from './sightline-agent.js';
export type { StepRecord, StepReplay, StepStatus } from './step-record.js';
export type { ReplayDivergence, ReplayMode, TurnReplay } from '../../shared/replay.js';
export type { ExtractSchema, JsonSchema } from './answer-schemas.js';
export {
  AssertionFailedError,
  SightlineError,
  SightlineSetupError,
  StepFailedError,
  StepStoppedError,
  WaitTimeoutError,
} from './automation-errors.js';
export { secretPlaceholder } from './secret-typing.js';
export type { AgentEvent } from '../../shared/events.js';
export type { TurnAnswer, StepKind, LocatedElement } from '../../shared/answers.js';
export type { CostTotals } from '../../shared/cost.js';
