/**
 * One tool the model may call. Built-in tools (computer, finish, ask_user, recall tools) and outside ones
 * (web_search, MCP servers' tools) share this shape, so the registry treats them alike.
 */
import type { z } from 'zod';
import type { ComputerAction, StepAction } from '../../../shared/actions.js';
import type { TurnAnswer } from '../../../shared/answers.js';
import type { ConfirmationPolicy } from '../../../shared/config.js';
import type { AgentEvent } from '../../../shared/events.js';
import type { MessagePart, ToolResultProviderData } from '../../../shared/messages.js';
import type { ShownScreenshot } from '../../../shared/model-view.js';
import type { ShownImages } from '../../context/index.js';
import type { ArgumentPath } from '../password-masking.js';
import type { NativeToolDeclaration } from '../../llm/model-adapter.js';
import type { Storage } from '../../storage/storage.js';
import type { PressCheck } from '../../operators/operator.js';

export interface ToolCallScope {
  sessionId: string;
  turnId: string;
  signal: AbortSignal;
  storage: Storage;
  emit: (event: AgentEvent) => void;
  /**
   * The screenshot the model was looking at when it made this call: its coordinates are in that view.
   * Undefined while it has been shown no screen (an MCP client that has not asked for a screenshot yet).
   */
  shown: ShownScreenshot | undefined;
  /** How each image was shown to the model (or would be, recalled): the space of the boxes it draws on them. */
  shownImages: ShownImages;
  /**
   * The configured secrets' redactor, for what leaves the agent other than by events (which are redacted
   * where they are emitted): the request a confirmation handler shows a person. None: nothing to redact.
   */
  redact?: ((text: string) => string) | undefined;
  /**
   * The action as a confirmation shows it: with what it types masked when, typed after what the session's
   * calls typed before, it completes a configured secret spelled over several calls (spelled-secrets.ts).
   * None: shown as it is.
   */
  maskSpelledSecret?: ((action: ComputerAction) => ComputerAction) | undefined;
  /** A replay's last look before a click presses (replay-turn.ts): a reason it gives stops the click, nothing pressed. */
  pressCheck?: PressCheck | undefined;
}

/**
 * What a tool call came to. Its parts go back to the model as the tool result (images included).
 * `isError` tells the model the call failed; `endTurn` ends the turn after this call (finish does).
 */
export interface ToolResult {
  parts: MessagePart[];
  isError?: boolean;
  endTurn?: { status: 'finished' | 'failed'; summary: string; /** The model's validated answer (the answer tool's). */ answer?: TurnAnswer };
  /** What the step row records beyond the parts; the agent derives it from the parts when absent. */
  record?: ToolStepRecord;
  /** What the provider needs back with the result (OpenAI's computer tool: acknowledged safety checks, the URL). */
  providerData?: ToolResultProviderData;
}

/** A tool's own account of its step, for the timeline (the computer tool's action and new screenshot). */
export interface ToolStepRecord {
  /** The computer action the step performed (or tried to), or the tool call a person refused. */
  action?: StepAction;
  /** JSON for the step's result column. */
  result?: unknown;
  /** When the screen had not changed after the action: the earlier image it equals. */
  dedupOfImageId?: string;
  /**
   * The reason the model gave for this very call, where its protocol carries one (Gemini 3.5's `intent`): the
   * model's words, recorded with the step's thought and shown only through the terminal sanitizer.
   */
  intent?: string;
  /**
   * What the action typed into a password field, in every form the model may have written it: the turn
   * masks these in the stored call and thought (the action and result above are masked already).
   */
  typedIntoPasswordField?: string[];
  /**
   * With `typedIntoPasswordField`: where in the call's arguments, as the model wrote them, the typing is
   * (password-masking.ts), so that the stored call is masked in its own protocol's shape.
   */
  typedArgumentPaths?: ArgumentPath[];
  /**
   * What a paste or a drop put into a password field, as the operator read it from the field (the
   * browser): masked like typed text wherever it is found. The call itself (a key chord, a drag's points)
   * holds none of it, so it has no argument paths.
   */
  pastedIntoPasswordField?: string[];
  /**
   * Every action of the call that types outside a password field (`type`, a `key` or `hold_key` that spells
   * text), whether or not it ran, in order, with where the call's arguments hold what it types: the turn
   * joins what the session's calls type, to find a configured secret spelled over several of them and mask
   * each piece where it was written (spelled-secrets.ts).
   */
  writtenTyping?: WrittenTyping[];
  /**
   * With `writtenTyping`: what the focused field held once the call had typed, as the operator read it (the
   * browser): the turn checks it for configured secrets and masks the pieces that typed one. Never stored.
   */
  typedFieldText?: string;
}

/** An action of a call that types, and where the call's arguments, as the model wrote them, hold what it types. */
export interface WrittenTyping {
  action: ComputerAction;
  path: ArgumentPath;
}

export interface ToolDefinition<Arguments = unknown> {
  /** Unique in the registry; outside tools are namespaced (`<server>__<tool>`). */
  name: string;
  description: string;
  /** Validates the model's arguments; its JSON schema is what the model is shown. */
  arguments: z.ZodType<Arguments>;
  /** A JSON schema to show instead of the one derived from `arguments` (MCP tools bring their own). */
  parametersJsonSchema?: Record<string, unknown>;
  /**
   * The exact schema of the arguments, published where clients validate against it (MCP's tools/list);
   * the model's schema (above) when absent. The computer tool's is a per-action `oneOf`, which the model's
   * APIs do not all take at the top of a function's parameters.
   */
  publishedJsonSchema?: Record<string, unknown>;
  /** Declared to the provider as its own tool (OpenAI's computer tool), not as a function. */
  nativeDeclaration?: NativeToolDeclaration;
  /**
   * Set by a tool that acts outside Sightline and does not gate itself (an MCP server's): the confirmation
   * gate (tool-confirmation.ts) asks before it runs, as the policy says. Absent: the tool only reads, or
   * gates itself (computer).
   */
  sideEffects?: ToolSideEffects;
  /**
   * Set by a tool whose protocol runs a reply's calls as a batch that stops at the first failure (Claude's
   * computer toolset): once a call of such a tool fails, the reply's later calls are not run, each answered as
   * an error; those of such tools with this text, which the protocol prescribes.
   */
  haltsBatch?: string;
  execute(argumentsValue: Arguments, scope: ToolCallScope): Promise<ToolResult>;
}

/** What the confirmation gate knows of a tool with side effects. */
export interface ToolSideEffects {
  /** Why the tool counts as risky under the `risky` policy; undefined when it says it only reads. */
  risk: string | undefined;
  /** This tool's own policy, when it is not the run's (an MCP server's `confirm`); a run under `always` still asks. */
  policy?: ConfirmationPolicy | undefined;
}
