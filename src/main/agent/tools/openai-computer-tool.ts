/**
 * `computer` as OpenAI's computer tool: declared to the Responses API natively (`computer_use_preview`
 * with the display and environment, or the GA `computer`), called with `computer_call` items whose
 * arguments keep OpenAI's shapes. Each call's actions become Sightline's computer actions
 * (openai-computer-actions.ts) and run in order through the one pipeline every computer action takes
 * (performComputerAction: the safety policy, the coordinate mapping, the operator, the screenshot after),
 * stopping at the first that fails.
 *
 * OpenAI may attach `pending_safety_checks` to a call. They go to the same confirmation gate as risky
 * actions, before anything runs: acknowledged only when a person said yes or --yes was given; otherwise
 * nothing runs and the model is told. The step records the answer, and the result carries the
 * acknowledged checks back to OpenAI (`acknowledged_safety_checks`).
 *
 * OpenAI's `computer_call_output` must hold a screenshot, so every call that ran ends with one in its
 * result: the new screenshot, or the earlier one the screen still equals (dedup), by its id.
 */
import type { ComputerAction } from '../../../shared/actions.js';
import { COMPUTER_TOOL_NAME } from '../../../shared/actions.js';
import type { ConfirmationAnswerer } from '../../../shared/events.js';
import type { MessagePart, SafetyCheck, ToolResultProviderData } from '../../../shared/messages.js';
import type { OpenAiComputerToolDeclaration } from '../../llm/model-adapter.js';
import type { Operator } from '../../operators/operator.js';
import { askConfirmation } from '../confirmation-gate.js';
import { maskedForApproval, maskedTyping, typedField, typedStrings } from '../password-masking.js';
import { performComputerAction, type ComputerToolOptions } from './computer-tool.js';
import {
  MAX_BATCHED_ACTIONS,
  OpenAiComputerArgumentsSchema,
  toComputerAction,
  type ActionMappingContext,
  type OpenAiComputerArguments,
} from './openai-computer-actions.js';
import { computerActionOf, firstActionPath, PasswordTyping, typesIntoPasswordField, writtenTypingOf } from './openai-password-typing.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from './tool-definition.js';

export interface OpenAiComputerToolOptions extends ComputerToolOptions {
  toolType: OpenAiComputerToolDeclaration['toolType'];
  /** The size of the screenshots as the model is shown them: the display the preview tool declares. */
  screenshotSize: { width: number; height: number };
}

/** How a call's safety checks were answered: what the step records. */
interface SafetyCheckAnswer {
  checks: SafetyCheck[];
  acknowledged: boolean;
  by: ConfirmationAnswerer;
}

/** One action of the call as the step records it. */
interface ActionOutcome {
  action: ComputerAction;
  ok: boolean;
  text: string;
}

const COMPUTER_CALL_SHAPE: Record<string, unknown> = {
  type: 'object',
  description:
    "OpenAI's computer_call: an action (click with button left, right or wheel; double_click; drag with a path of " +
    'at least two points; keypress with keys; move; screenshot; scroll with scroll_x and scroll_y; type with text; wait) ' +
    `or an actions list of at most ${MAX_BATCHED_ACTIONS}, and the pending_safety_checks.`,
};

export function createOpenAiComputerTool(options: OpenAiComputerToolOptions): ToolDefinition<OpenAiComputerArguments> {
  return {
    name: COMPUTER_TOOL_NAME,
    description:
      "OpenAI's computer tool: act on the screen with the mouse and keyboard. Coordinates are pixels of the latest " +
      'screenshot; every result is the screenshot after the actions.',
    arguments: OpenAiComputerArgumentsSchema,
    // OpenAI declares the tool itself, so this is never sent as a declaration; it is what a malformed call's
    // answer shows as expected, and a model with an 8k window is better told in a line than in a schema.
    parametersJsonSchema: COMPUTER_CALL_SHAPE,
    nativeDeclaration: {
      kind: 'openai-computer',
      toolType: options.toolType,
      displayWidth: options.screenshotSize.width,
      displayHeight: options.screenshotSize.height,
      environment: environmentOf(options.operator),
    },
    execute: (argumentsValue, scope) => runComputerCall(argumentsValue, scope, options),
  };
}

async function runComputerCall(argumentsValue: OpenAiComputerArguments, scope: ToolCallScope, options: OpenAiComputerToolOptions): Promise<ToolResult> {
  const natives = argumentsValue.actions ?? (argumentsValue.action === undefined ? [] : [argumentsValue.action]);
  const context = mappingContext(scope, options.operator);
  const actions: ComputerAction[] = [];
  for (const [index, native] of natives.entries()) {
    const mapped = toComputerAction(native, context);
    if (!mapped.ok) {
      const where = natives.length > 1 ? `Action ${index + 1} of ${natives.length}: ` : '';
      return { parts: [{ type: 'text', text: `${where}${mapped.error}. Nothing was done.` }], isError: true, record: { result: { ok: false, error: mapped.error } } };
    }
    actions.push(mapped.action);
  }
  const first = actions[0]!;

  const checks = argumentsValue.pending_safety_checks.map(safetyCheckOf);
  const intoPassword = checks.length > 0 && (await typesIntoPasswordField(first, options.operator));
  // Asked about and recorded as any action into a password field is: that it types, never what.
  const shownFirst = intoPassword ? maskedForApproval(first) : first;
  const safety = checks.length === 0 ? undefined : await answerSafetyChecks(checks, shownFirst, scope, options);
  if (safety !== undefined && !safety.acknowledged) {
    const field = typedField(first);
    const typing = intoPassword && field !== undefined ? { typedIntoPasswordField: typedStrings(first), typedArgumentPaths: [[...firstActionPath(argumentsValue), field]] } : {};
    return {
      parts: [{ type: 'text', text: safety.refusal }],
      isError: true,
      record: {
        action: intoPassword ? maskedTyping(first) : first,
        result: { ok: false, refused: true, safetyChecks: safety.answer },
        ...typing,
        writtenTyping: writtenTypingOf(actions, argumentsValue, (index) => index === 0 && intoPassword),
      },
    };
  }

  const outcomes: ActionOutcome[] = [];
  const masking = new PasswordTyping();
  const intoPasswordField = new Set<number>();
  let last: ToolResult | undefined;
  for (const [index, action] of actions.entries()) {
    last = await performComputerAction(action, scope, options);
    masking.add(last, index === 0 ? firstActionPath(argumentsValue) : ['actions', index]);
    if (last.record?.typedIntoPasswordField !== undefined) intoPasswordField.add(index);
    // The action as performComputerAction recorded it: masked when it typed into a password field.
    outcomes.push({ action: computerActionOf(last) ?? action, ok: last.isError !== true, text: textOf(last.parts) });
    if (last.isError === true) break;
  }
  const screenshot = await screenshotAfter(last!, options);
  const failed = outcomes.some((outcome) => !outcome.ok);
  const parts: MessagePart[] = [{ type: 'text', text: summaryOf(outcomes, actions.length) }];
  // The screenshot always goes back (OpenAI's computer_call_output holds one), even when it is an earlier image.
  parts.push({ type: 'image', imageId: screenshot.imageId });
  return {
    parts,
    ...(failed ? { isError: true } : {}),
    record: {
      action: outcomes.at(-1)!.action,
      result: {
        ok: !failed,
        actions: outcomes.map(({ action, ok, text }) => ({ action, ok, ...(ok ? { detail: text } : { error: text }) })),
        screenshotImageId: screenshot.imageId,
        ...(safety === undefined ? {} : { safetyChecks: safety.answer }),
      },
      ...(screenshot.sameAs === undefined ? {} : { dedupOfImageId: screenshot.sameAs }),
      ...masking.record(),
      writtenTyping: writtenTypingOf(actions, argumentsValue, (index) => intoPasswordField.has(index)),
    },
    providerData: providerDataOf(safety?.answer, options.operator),
  };
}

/** Asks the confirmation gate about OpenAI's checks; only a person's yes or --yes acknowledges them. */
async function answerSafetyChecks(
  checks: SafetyCheck[],
  first: ComputerAction,
  scope: ToolCallScope,
  options: OpenAiComputerToolOptions,
): Promise<{ acknowledged: boolean; answer: SafetyCheckAnswer; refusal: string }> {
  const described = checks.map((check) => `${check.code ?? 'check'}${check.message === undefined ? '' : `: ${check.message}`}`).join('; ');
  const reason = `OpenAI's safety check asks a person to acknowledge it (${described})`;
  const answer = await askConfirmation(first, reason, scope, options.confirm);
  const acknowledged = answer.approved && (answer.by === 'user' || answer.by === 'flag');
  const refusal =
    answer.refusal ??
    `OpenAI's safety check was not acknowledged (${described}). Nothing was done; do not try to get around it.`;
  return { acknowledged, answer: { checks, acknowledged, by: answer.by }, refusal };
}

/** The screenshot a call's result ends with: the last action's, or the screen now when it had none. */
async function screenshotAfter(
  last: ToolResult,
  options: OpenAiComputerToolOptions,
): Promise<{ imageId: string; sameAs?: string }> {
  const image = last.parts.find((part) => part.type === 'image');
  if (image?.imageId !== undefined) return { imageId: image.imageId };
  const sameAs = last.record?.dedupOfImageId;
  if (sameAs !== undefined) return { imageId: sameAs, sameAs };
  // The action failed before any screenshot: OpenAI still needs the screen as it is.
  const capture = await options.screen.capture(false);
  return capture.kind === 'new' ? { imageId: capture.imageId } : { imageId: capture.sameAs, sameAs: capture.sameAs };
}

function summaryOf(outcomes: readonly ActionOutcome[], planned: number): string {
  if (planned === 1) return outcomes[0]!.text;
  const lines = outcomes.map((outcome, index) => `${index + 1}. ${outcome.text}`);
  if (outcomes.length < planned) lines.push(`Actions ${outcomes.length + 1} to ${planned} were not run.`);
  return lines.join('\n');
}

function textOf(parts: readonly MessagePart[]): string {
  return parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join(' ');
}

function providerDataOf(safety: SafetyCheckAnswer | undefined, operator: Operator): ToolResultProviderData | undefined {
  const url = operator.describe().url;
  const data: ToolResultProviderData = {
    ...(safety?.acknowledged === true ? { acknowledgedSafetyChecks: safety.checks } : {}),
    ...(url === null ? {} : { currentUrl: url }),
  };
  return Object.keys(data).length === 0 ? undefined : data;
}

function safetyCheckOf(check: OpenAiComputerArguments['pending_safety_checks'][number]): SafetyCheck {
  return {
    id: check.id,
    ...(typeof check.code === 'string' ? { code: check.code } : {}),
    ...(typeof check.message === 'string' ? { message: check.message } : {}),
  };
}

/** Screen units per pixel of the screenshot the call was made on (1 when there is none to tell). */
function mappingContext(scope: ToolCallScope, operator: Operator): ActionMappingContext {
  const view = scope.shown?.view;
  const scaleFactor = operator.describe().scaleFactor;
  const ratio = view === undefined ? 1 : view.frameWidth / view.imageWidth / scaleFactor;
  return { screenUnitsPerImagePixel: Number.isFinite(ratio) && ratio > 0 ? ratio : 1 };
}

/** What the model is told it drives: a browser, or the desktop's operating system. */
function environmentOf(operator: Operator): OpenAiComputerToolDeclaration['environment'] {
  if (operator.describe().kind === 'browser') return 'browser';
  if (process.platform === 'darwin') return 'mac';
  if (process.platform === 'win32') return 'windows';
  return 'linux';
}
