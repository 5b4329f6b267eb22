/**
 * The agent's public face: what the CLI (`sightline run`), the app API and the MCP server call. The loop
 * itself lives beside this file; everything a caller needs to know is here.
 */
import type { StepAction } from '../../shared/actions.js';
import type { AnswerKind, StepKind, TurnAnswer } from '../../shared/answers.js';
import type { TurnReplay } from '../../shared/replay.js';
import type { Config } from '../../shared/config.js';
import type { EphemeralContext } from '../../shared/ephemeral.js';
import type { AgentEvent, ConfirmationAnswerer } from '../../shared/events.js';
import type { UserMessage } from '../../shared/messages.js';
import type { TurnEndReason, TurnStatus } from '../../shared/statuses.js';
import type { CostTotals } from '../../shared/cost.js';
import type { CostCeiling } from '../../shared/cost-ceiling.js';
import type { TokenUsage } from '../../shared/token-usage.js';
import type { ModelAdapter } from '../llm/model-adapter.js';
import type { Operator } from '../operators/operator.js';
import type { Storage } from '../storage/storage.js';
import type { ToolDefinition } from './tools/tool-definition.js';

export interface TurnRequest {
  /** The session to continue; a new session is created when absent. */
  sessionId?: string;
  /** What the user asked, as parts (the CLI converts its string argument with `userText`). */
  request: UserMessage;
  /**
   * Context for this turn's requests only (a note, a quote, a document): appended to the latest user
   * message of each request of the turn, never stored in messages.
   */
  ephemeral?: EphemeralContext[];
  /** Stops the turn cleanly: the current action finishes or is abandoned, the turn ends as stopped. */
  signal?: AbortSignal;
  /**
   * Asks a question about the screen instead of a task: the model looks and answers (answer-tool.ts), with
   * only the tools that look (no computer actions), and the turn ends with the validated answer.
   */
  answer?: AnswerRequest;
  /** The kind of flow step the turn runs for, stored with the turn (the timeline shows it). */
  stepKind?: StepKind;
  /** When the turn starts a new session: the flow it belongs to, which names the session. */
  flowName?: string;
  /** A cost ceiling over several turns (an automation's, a flow's), besides agent.maxCost's for the turn. */
  budget?: TurnBudget;
  /**
   * The key the step's recording is found by (a flow's name, the step's kind and rendered text): stored with the
   * turn, so a turn that finishes becomes the step's recording.
   */
  replayKey?: string;
  /**
   * Replays the latest recording of `replayKey` instead of asking the model (replay-turn.ts): each action checked
   * against the recorded screens before and after; at a divergence the model heals the step from the present
   * screen, or, with `heal: false`, the turn fails there. A question's recorded verdict is reused on a frame
   * identical to the recorded one. Without a recording the model runs the step.
   */
  replay?: { heal: boolean; /** This turn's recording instead of the key's latest (`sightline replay SESSION`). */ fromTurnId?: string };
}

/** A ceiling shared by a run of turns: what they spent before this turn counts against it. */
export interface TurnBudget {
  ceiling: CostCeiling;
  /** Whose ceiling, for the summary: "the automation", "the flow". */
  owner: string;
  /** What sets it, for the summary: "--max-cost", "maxCost". */
  setting: string;
  spentBefore: { dollars: number; tokens: number };
}

/** A question the turn answers instead of acting (see TurnRequest.answer). */
export interface AnswerRequest {
  kind: AnswerKind;
  /** `value`: the JSON Schema of the value, shown to the model as the answer's parameter. */
  schema?: Record<string, unknown>;
  /** `value`: checks the value (a zod schema's safeParse from the SDK); a check made from `schema` when absent. */
  check?: (value: unknown) => { ok: true; value: unknown } | { ok: false; error: string };
  /** `until`: how long the condition is watched, from the turn's start (30 s when absent). */
  timeoutMs?: number;
  /** `until`: how often the screen is looked at between answers (answer-tool.ts's default when absent). */
  pollMs?: number;
}

export interface TurnOutcome {
  sessionId: string;
  turnId: string;
  status: TurnStatus;
  reason: TurnEndReason;
  /** The model's `finish` summary, or what went wrong. */
  summary?: string;
  /** The model's validated answer, when the turn asked a question (TurnRequest.answer). */
  answer?: TurnAnswer;
  steps: number;
  usage: TokenUsage;
  /** What the turn's model calls cost: dollars where the model's price is known, else their tokens. */
  cost: CostTotals;
  /** For a turn with a replay key: replayed, healed, diverged or the model's, and what it saved. */
  replay?: TurnReplay;
}

export interface ConfirmationRequest {
  sessionId: string;
  turnId: string;
  /** The id the agent's `confirmation-requested` event carries; an answer from the UI names it. */
  requestId: string;
  /** A computer action, or the call of another tool with side effects (an MCP server's `{ tool, arguments }`). */
  action: StepAction;
  /** Why the policy asks, in a sentence a person understands ("key combination alt+F4 may close a window"). */
  reason: string;
}

/** A handler's answer with who gave it: a person, a rule (headless without a terminal), or a flag (`--yes`). */
export interface ConfirmationAnswer {
  approved: boolean;
  by: ConfirmationAnswerer;
  /**
   * What the model is told of a refusal, when the answerer knows better than "the user refused": over MCP
   * nobody was asked, the policy refused, and the way to allow the action is a flag.
   */
  refusal?: string;
}

/**
 * Asks a person to approve a risky action before it runs. Resolves false to refuse it; a plain boolean
 * counts as the user's answer, a ConfirmationAnswer says who answered.
 */
export type ConfirmationHandler = (
  request: ConfirmationRequest,
  signal: AbortSignal,
) => Promise<boolean | ConfirmationAnswer>;

/** Asks a person the model's question; undefined when nobody can answer (headless without a terminal). */
export type AskUserHandler = (
  question: string,
  context: { sessionId: string; turnId: string; /** The id the agent's `ask-user` event carries. */ requestId: string },
  signal: AbortSignal,
) => Promise<string | undefined>;

/** Runs once when a turn ends (finish, failure, step limit or stop); compaction registers here. */
export type TurnEndHook = (turn: { sessionId: string; turnId: string; status: TurnStatus }) => Promise<void> | void;

export interface AgentDependencies {
  storage: Storage;
  config: Config;
  model: ModelAdapter;
  operator: Operator;
  confirm: ConfirmationHandler;
  askUser: AskUserHandler;
  onEvent?: (event: AgentEvent) => void;
  turnEndHooks?: TurnEndHook[];
  /** Tools beyond the built-in ones (web_search, MCP servers' tools), merged into the registry. */
  extraTools?: ToolDefinition[];
  /**
   * Whether the screen is watched after an action until it settles (default true, perception.settle), so the
   * model sees what its click did rather than a frame mid-redraw. False takes the screenshot at once: tests
   * whose fake screens never change on their own pass it.
   */
  watchSettling?: boolean;
  /**
   * Secret values beyond the configuration's (a flow's `secrets`, the SDK's): masked wherever the configured
   * keys are (events, errors; storage has its own redactor, which must know them too).
   */
  secrets?: readonly string[];
  /**
   * Where ephemeral injection, and the cleaning of injected blocks out of the stored request, log their
   * lengths (never the content); by default stderr when SIGHTLINE_DEBUG_INJECTION=1 or
   * DEBUG_EPHEMERAL_INJECTION=true, otherwise nothing.
   */
  injectionDebugLog?: (line: string) => void;
}

export interface Agent {
  runTurn(request: TurnRequest): Promise<TurnOutcome>;
}
