/**
 * Gemini's computer_use tool as tools of the registry: one per predefined function Sightline answers
 * (click_at, type_text_at, click, hotkey, …), named as Gemini names them, so the stored history keeps Gemini's
 * calls as written. They all carry one native declaration (the environment and the excluded functions), which
 * the Gemini adapter sends once as `computerUse`. Each call is translated (gemini-computer-translation.ts) into
 * computer actions that go through the one pipeline every protocol shares (performComputerAction: the safety
 * policy and confirmation gate, the call's view, the operator, the screenshot after), in order, stopping at the
 * first that fails.
 *
 * A call whose `safety_decision` is anything but the documented proceed value (`regular`), `require_confirmation`
 * or any other spelling or decision (gemini-computer-translation.ts, geminiSafetyDecisionOf), goes to the same
 * confirmation gate first, as OpenAI's pending safety checks do (openai-computer-tool.ts): only a person's yes,
 * or --yes, lets it run, and then its response acknowledges the decision (`safety_acknowledgement`) and the
 * step records who approved it. Without one nothing runs and the response says so, with no acknowledgement.
 * A safety field of an unknown shape fails the arguments' schema: the call is answered as malformed.
 *
 * Every response that ran ends with the screen after it (the documented shape: the URL and the screenshot), or
 * says the screen is unchanged, as everywhere.
 */
import { z } from 'zod';
import type { ComputerAction } from '../../../shared/actions.js';
import type { ConfirmationAnswerer } from '../../../shared/events.js';
import type { MessagePart } from '../../../shared/messages.js';
import { terminalLine } from '../../../shared/terminal-text.js';
import type { GeminiComputerToolDeclaration } from '../../llm/model-adapter.js';
import { askConfirmation } from '../confirmation-gate.js';
import { maskedForApproval } from '../password-masking.js';
import { performComputerAction, type ComputerToolOptions } from './computer-tool.js';
import {
  excludedGeminiFunctions,
  GEMINI_25_FUNCTIONS,
  GEMINI_35_FUNCTIONS,
  GEMINI_ANSWERED_FUNCTIONS,
  GEMINI_SAFETY_FIELD,
  GeminiComputerArgumentsSchema,
  geminiSafetyDecisionOf,
  translateGeminiCall,
  type GeminiComputerArguments,
  type GeminiSafetyDecision,
} from './gemini-computer-translation.js';
import { computerActionOf, PasswordTyping, typesIntoPasswordField } from './openai-password-typing.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from './tool-definition.js';

export interface GeminiComputerToolOptions extends ComputerToolOptions {
  /** Which of Google's function sets the model was trained on: what the excluded list names. */
  functionSet: 'gemini-2.5' | 'gemini-3.5';
  /** Whether the model's computer_use takes ENVIRONMENT_DESKTOP (the profile's computerUseDesktop). */
  desktopEnvironment: boolean;
}

/** How a `safety_decision` was answered: what the step records. */
interface SafetyDecisionAnswer {
  decision: string;
  explanation?: string;
  acknowledged: boolean;
  by: ConfirmationAnswerer;
}

/** A model without the desktop environment is told it drives a browser: the only screen it was trained on. */
function environmentOf(kind: 'desktop' | 'browser', desktopEnvironment: boolean): GeminiComputerToolDeclaration['environment'] {
  return kind === 'desktop' && desktopEnvironment ? 'ENVIRONMENT_DESKTOP' : 'ENVIRONMENT_BROWSER';
}

export function createGeminiComputerTools(options: GeminiComputerToolOptions): ToolDefinition<GeminiComputerArguments>[] {
  const kind = options.operator.describe().kind;
  const native: GeminiComputerToolDeclaration = {
    kind: 'gemini-computer',
    environment: environmentOf(kind, options.desktopEnvironment),
    excludedPredefinedFunctions: excludedGeminiFunctions(options.functionSet, kind),
  };
  const excluded = new Set(native.excludedPredefinedFunctions);
  return GEMINI_ANSWERED_FUNCTIONS.filter((name) => !excluded.has(name)).map((name) => ({
    name,
    description: `Gemini's predefined computer_use function ${name}: points on the 0-999 grid of the latest screenshot.`,
    arguments: GeminiComputerArgumentsSchema,
    // Gemini declares these itself, so this is never sent: it is what a malformed call's answer shows.
    parametersJsonSchema: { type: 'object', description: `The arguments of Gemini's ${name}, as Google documents them.` },
    nativeDeclaration: native,
    execute: (argumentsValue, scope) => runGeminiCall(name, argumentsValue, scope, options),
  }));
}

/** The name the declaration of a turn that only looks has in the registry (never a predefined function's). */
export const GEMINI_LOOKING_ONLY_TOOL = 'computer_use';

/**
 * Gemini's computer_use for a turn that answers a question: declared, because the computer-use models refuse a
 * request without it ("This model requires the use of the Computer Use tool"), with every predefined function of
 * the model's set excluded, so the model has nothing to act with and answers through the functions beside it.
 * The tool is never called by this name; if it were, nothing would be done.
 */
export function createGeminiLookingOnlyDeclaration(options: Pick<GeminiComputerToolOptions, 'functionSet' | 'desktopEnvironment'> & { operatorKind: 'desktop' | 'browser' }): ToolDefinition<Record<string, unknown>> {
  const functions: readonly string[] = options.functionSet === 'gemini-2.5' ? GEMINI_25_FUNCTIONS : GEMINI_35_FUNCTIONS;
  return {
    name: GEMINI_LOOKING_ONLY_TOOL,
    description: "Gemini's computer_use, declared with every function excluded: this step only looks at the screen.",
    arguments: z.record(z.string(), z.unknown()),
    nativeDeclaration: { kind: 'gemini-computer', environment: environmentOf(options.operatorKind, options.desktopEnvironment), excludedPredefinedFunctions: [...functions] },
    execute: async () => ({ parts: [{ type: 'text', text: 'This step only looks at the screen: nothing was done. Call answer.' }], isError: true }),
  };
}

async function runGeminiCall(name: string, args: GeminiComputerArguments, scope: ToolCallScope, options: GeminiComputerToolOptions): Promise<ToolResult> {
  const screen = screenSize(scope, options);
  const step = translateGeminiCall(name, args, { ...screen, selectAll: selectAllKeys(options) });
  const intent = intentOf(args);
  const said = intent === undefined ? {} : { intent };
  if (step.kind === 'refuse') return { parts: [{ type: 'text', text: step.message }], isError: true, record: { result: { ok: false, error: step.message }, ...said } };
  const actions = step.actions;
  const first = actions[0]!;

  const decision = geminiSafetyDecisionOf(args);
  const safety = decision.kind === 'confirm' ? await answerSafetyDecision(decision, first, scope, options) : undefined;
  if (safety !== undefined && !safety.answer.acknowledged) {
    return { parts: [{ type: 'text', text: safety.refusal }], isError: true, record: { action: safety.shown, result: { ok: false, refused: true, safetyDecision: safety.answer }, ...said } };
  }

  const masking = new PasswordTyping();
  const done: Array<{ action: ComputerAction; ok: boolean; text: string }> = [];
  let last: ToolResult | undefined;
  for (const action of actions) {
    last = await performComputerAction(action, scope, options);
    // Gemini writes what type_text_at and type type in `text`, and the keys of a combination in `keys` or `key`.
    masking.add(last, []);
    done.push({ action: computerActionOf(last) ?? action, ok: last.isError !== true, text: textOf(last.parts) });
    if (last.isError === true) break;
  }
  const failed = done.some((outcome) => !outcome.ok);
  // The last action's own words give way to the whole call's; its screen (or "unchanged") follows.
  const parts: MessagePart[] = [{ type: 'text', text: summaryOf(done, actions.length) }, ...last!.parts.slice(1)];
  const typed = masking.record();
  const url = options.operator.describe().url;
  return {
    parts,
    ...(failed ? { isError: true } : {}),
    record: {
      action: done.at(-1)!.action,
      result: {
        ok: !failed,
        ...(actions.length > 1 ? { actions: done.map(({ action, ok, text }) => ({ action, ok, ...(ok ? { detail: text } : { error: text }) })) } : {}),
        ...(last!.record?.result !== undefined && typeof last!.record.result === 'object' ? pick(last!.record.result as Record<string, unknown>, ['screenshotImageId', 'unchanged', 'settle']) : {}),
        ...(safety === undefined ? {} : { safetyDecision: safety.answer }),
      },
      ...(last!.record?.dedupOfImageId === undefined ? {} : { dedupOfImageId: last!.record.dedupOfImageId }),
      ...said,
      ...(typed.typedIntoPasswordField === undefined ? {} : { typedIntoPasswordField: typed.typedIntoPasswordField, typedArgumentPaths: typedPaths(name) }),
    },
    ...(url === null && safety === undefined
      ? {}
      : { providerData: { ...(url === null ? {} : { currentUrl: url }), ...(safety === undefined ? {} : { safetyAcknowledged: true }) } }),
  };
}

/**
 * Only a person's yes, or --yes, acknowledges Gemini's safety decision; a rule's approval does not. A decision
 * other than the documented `require_confirmation` under the documented key is named as written, so the person
 * sees what Gemini (or whatever answered in its place) actually said.
 */
async function answerSafetyDecision(
  decision: Extract<GeminiSafetyDecision, { kind: 'confirm' }>,
  first: ComputerAction,
  scope: ToolCallScope,
  options: GeminiComputerToolOptions,
): Promise<{ answer: SafetyDecisionAnswer; refusal: string; shown: ComputerAction }> {
  const { explanation } = decision;
  const shown = (await typesIntoPasswordField(first, options.operator)) ? maskedForApproval(first) : first;
  // Google's words reach the question a person reads on a terminal: one line, no control characters (the
  // decision itself is shown JSON-quoted, which escapes them).
  const why = explanation === undefined || explanation.trim() === '' ? '' : ` (${terminalLine(explanation.trim())})`;
  const documented = decision.field === GEMINI_SAFETY_FIELD && decision.decision === 'require_confirmation';
  const which = documented ? "Gemini's safety decision" : `Gemini's safety decision (${decision.field}: ${JSON.stringify(decision.decision)})`;
  const reason = `${which} asks a person to confirm this action${why}`;
  const answer = await askConfirmation(shown, reason, scope, options.confirm);
  const acknowledged = answer.approved && (answer.by === 'user' || answer.by === 'flag');
  const refusal = answer.refusal ?? `${which} required a person's confirmation${why}, which was not given. Nothing was done; do not try to get around it.`;
  return {
    answer: { decision: decision.decision, ...(explanation === undefined ? {} : { explanation }), acknowledged, by: answer.by },
    refusal,
    shown,
  };
}

const MAX_INTENT_LENGTH = 2000;

/** The call's `intent` as the step keeps it: trimmed, bounded, absent when the model gave none. */
function intentOf(args: GeminiComputerArguments): string | undefined {
  const intent = args.intent?.trim();
  if (intent === undefined || intent === '') return undefined;
  return intent.length > MAX_INTENT_LENGTH ? `${intent.slice(0, MAX_INTENT_LENGTH)}…` : intent;
}

/** Where a call typed into a password field wrote the typing in its own arguments. */
function typedPaths(name: string): string[][] {
  return name === 'type_text_at' || name === 'type' ? [['text']] : name === 'press_key' ? [['key']] : [['keys']];
}

/** The screen in the operator's units (CSS pixels for the browser), for scroll distances. */
function screenSize(scope: ToolCallScope, options: GeminiComputerToolOptions): { screenWidth: number; screenHeight: number } {
  const view = scope.shown?.view;
  const scale = options.operator.describe().scaleFactor || 1;
  if (view === undefined) return { screenWidth: 1280, screenHeight: 800 };
  return { screenWidth: view.frameWidth / scale, screenHeight: view.frameHeight / scale };
}

function selectAllKeys(options: GeminiComputerToolOptions): string {
  return options.operator.describe().kind === 'desktop' && process.platform === 'darwin' ? 'cmd+a' : 'ctrl+a';
}

function summaryOf(done: ReadonlyArray<{ text: string }>, planned: number): string {
  if (planned === 1) return done[0]!.text;
  const lines = done.map((outcome, index) => `${index + 1}. ${outcome.text}`);
  if (done.length < planned) lines.push(`Steps ${done.length + 1} to ${planned} were not run.`);
  return lines.join('\n');
}

function textOf(parts: readonly MessagePart[]): string {
  return parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}
