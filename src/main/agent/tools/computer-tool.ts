/**
 * `computer`: one mouse or keyboard action on the screen the model sees. Before anything moves, the
 * safety policy decides whether a person must approve; a refused action does nothing. After an action,
 * a new screenshot goes back in the result (or, when nothing changed, "unchanged: same as img_…").
 *
 * The model's coordinates are in the screenshot it was looking at when it made the call (the call's
 * `shown`); the operator maps them to the screen through that screenshot's ModelView, and refuses a point
 * outside it (nothing is done).
 */
import { z } from 'zod';
import { COMPUTER_ACTION_TYPES, ComputerActionSchema, isComputerAction, MAX_WAIT_SECONDS, type ComputerAction } from '../../../shared/actions.js';
import type { ConfirmationPolicy } from '../../../shared/config.js';
import type { MessagePart } from '../../../shared/messages.js';
import type { ModelView } from '../../../shared/model-view.js';
import type { Redact } from '../../../shared/secret-redaction.js';
import type { ElementIdentity, FocusReading, Operator, PageText } from '../../operators/operator.js';
import { unchangedNotice } from '../../perception/capture-with-dedup.js';
import { unsettledNotice } from '../../perception/settle-watch.js';
import type { ConfirmationHandler } from '../agent-contract.js';
import { askConfirmation, refusalText } from '../confirmation-gate.js';
import { filledDetail, landedText, maskedDetail, maskedForApproval, maskedTyping, typedField, typedStrings, typedText, type ArgumentPath } from '../password-masking.js';
import { assessRisk, confirmationReason, dropPlace, focusRisk, needsConfirmation, pastes, pressesEnter, typesText, type DropPlace } from '../safety-policy.js';
import { performedPieces, type PerformedPiece } from '../typing-pieces.js';
import type { ScreenRecorder } from '../screen-recorder.js';
import { computerInputSchema } from './computer-input-schema.js';
import type { ToolCallScope, ToolDefinition, ToolResult, ToolStepRecord } from './tool-definition.js';

export { COMPUTER_TOOL_NAME } from '../../../shared/actions.js';
import { COMPUTER_TOOL_NAME } from '../../../shared/actions.js';

export interface ComputerToolOptions {
  operator: Operator;
  screen: ScreenRecorder;
  policy: ConfirmationPolicy;
  confirm: ConfirmationHandler;
  /**
   * The configuration's secret redactor: where the operator cannot tell what has the focus, typed text
   * holding a configured secret is risky. Without it only the heuristics of secret-likeness.ts apply.
   */
  redactSecrets?: Redact | undefined;
}

/**
 * Models prompted with one flat schema often send the fields an action does not use as null; those are
 * dropped before the strict per-action schema checks the rest.
 */
const ComputerArgumentsSchema = z.preprocess(withoutNullFields, ComputerActionSchema) as unknown as z.ZodType<ComputerAction>;

/**
 * One flat object (OpenAI requires `type: object` at the top of a function's parameters, so the
 * per-action union cannot be shown as is); the schema above checks which fields each action needs.
 */
const COMPUTER_PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: [...COMPUTER_ACTION_TYPES], description: 'What to do.' },
    x: {
      type: 'number',
      description: 'click, double_click, triple_click, right_click, middle_click, move, drag (start), scroll: x in the screenshot.',
    },
    y: { type: 'number', description: 'The same actions: y in the screenshot.' },
    to_x: { type: 'number', description: 'drag: where to release, x.' },
    to_y: { type: 'number', description: 'drag: where to release, y.' },
    scroll_x: { type: 'integer', description: 'scroll: notches right (positive) or left (negative), -100 to 100.' },
    scroll_y: { type: 'integer', description: 'scroll: notches down (positive) or up (negative), -100 to 100.' },
    text: { type: 'string', description: 'type: the text to type.' },
    keys: { type: 'string', description: 'key: a combination such as ctrl+s, alt+Tab or Return; several separated by spaces.' },
    seconds: { type: 'number', description: `wait: how long, 0 to ${MAX_WAIT_SECONDS} seconds.` },
  },
  required: ['action'],
  additionalProperties: false,
};

/** The exact schema (one branch per action), for clients that validate before they call. */
const COMPUTER_INPUT_SCHEMA = computerInputSchema(
  Object.fromEntries(
    Object.entries(COMPUTER_PARAMETERS.properties as Record<string, { description: string }>).map(([name, property]) => [name, property.description]),
  ),
);

export function createComputerTool(options: ComputerToolOptions): ToolDefinition<ComputerAction> {
  return {
    name: COMPUTER_TOOL_NAME,
    description:
      'Act on the screen with the mouse or keyboard, one action per call. Coordinates are in the latest ' +
      'screenshot. The result holds the screenshot after the action.',
    arguments: ComputerArgumentsSchema,
    parametersJsonSchema: COMPUTER_PARAMETERS,
    publishedJsonSchema: COMPUTER_INPUT_SCHEMA,
    execute: async (action, scope) => {
      const field = typedField(action);
      return withTypedArgumentPaths(await performComputerAction(action, scope, options), field === undefined ? [] : [[field]]);
    },
  };
}

/**
 * A one-action tool's result with where, in its call as the model wrote it, the typing is: for the password
 * masking when the action typed into a password field, otherwise as the call's written typing, which the turn
 * joins with the session's other calls to find a secret spelled over several (spelled-secrets.ts).
 */
export function withTypedArgumentPaths(result: ToolResult, paths: readonly ArgumentPath[]): ToolResult {
  const record = result.record;
  if (record === undefined || paths.length === 0) return result;
  if (record.typedIntoPasswordField !== undefined) return { ...result, record: { ...record, typedArgumentPaths: [...(record.typedArgumentPaths ?? []), ...paths] } };
  const action = record.action;
  if (action === undefined || !isComputerAction(action) || typedText(action) === '') return result;
  return { ...result, record: { ...record, writtenTyping: paths.map((path) => ({ action, path })) } };
}

/**
 * One computer action through the one pipeline: the safety policy, the mapping through the call's view,
 * the operator, the screenshot after. The native computer tools of other dialects translate their actions
 * and come through here, so the gate and the coordinates are the same for every protocol.
 *
 * Typed text with a newline, and a key sequence with keys that may move the focus, are performed piece by
 * piece (typing-pieces.ts), each piece through the gate on its own against the focus read again before it; a
 * piece refused or failed stops the rest, and the model is told what was done before it.
 */
export async function performComputerAction(action: ComputerAction, scope: ToolCallScope, options: ComputerToolOptions): Promise<ToolResult> {
  const details: string[] = [];
  let intoPasswordField = false;
  // What pastes and drops put into password fields, as the operator read it there.
  const landed: string[] = [];
  const recorded = (): ComputerAction => (intoPasswordField ? maskedTyping(action) : action);
  const masking = (): Pick<ToolStepRecord, 'typedIntoPasswordField' | 'pastedIntoPasswordField'> => ({
    ...(intoPasswordField ? { typedIntoPasswordField: typedStrings(action) } : {}),
    ...(landed.length > 0 ? { pastedIntoPasswordField: [...landed] } : {}),
  });
  // The element a click pressed and the page's text then, kept with the step (redacted like any stored text): what a
  // replay of it checks before it presses (replay-turn.ts).
  let element: ElementIdentity | undefined;
  let texts: PageText[] | undefined;
  const redacted = (text: string): string => scope.redact?.(text) ?? text;
  const pressed = (): { element?: ElementIdentity; texts?: PageText[] } => ({
    ...(element === undefined ? {} : { element: { ...element, name: redacted(element.name) } }),
    ...(texts === undefined ? {} : { texts: texts.map((run) => ({ ...run, text: redacted(run.text) })) }),
  });
  const pieces = performedPieces(action);
  for (const [index, piece] of pieces.entries()) {
    // A key sequence's first part is judged as the whole sequence: its combinations, and what it types where the focus is now.
    const gate = await confirmIfNeeded(piece, index === 0 && action.action === 'key' ? action : piece.action, scope, options);
    intoPasswordField ||= gate.focusedFieldKind === 'password' && typesText(piece.action);
    if (gate.refusal !== undefined) return stoppedPartWay(details, gate.refusal, { action: recorded(), result: { ok: false, refused: true }, ...masking() });
    if (scope.shown === undefined) {
      return {
        parts: [{ type: 'text', text: 'There is no screenshot to act on yet; call computer with action "screenshot" first.' }],
        isError: true,
        record: { action: recorded(), result: { ok: false }, ...masking() },
      };
    }
    const view = scope.shown.view;
    const fills = gate.fillsPassword;
    const before = fills === undefined ? undefined : await passwordText(options.operator, fills.at, view);
    const outcome = await options.operator.execute(piece.action, view, scope.signal, scope.pressCheck);
    if (!outcome.ok) return stoppedPartWay(details, outcome.error, { action: recorded(), result: { ok: false }, ...masking() });
    if (outcome.element !== undefined) element = outcome.element;
    if (outcome.texts !== undefined) texts = outcome.texts;
    const done = outcome.detail ?? `${piece.action.action} done`;
    if (fills !== undefined) {
      const after = await passwordText(options.operator, fills.at, view);
      const put = after === undefined ? undefined : landedText(before ?? '', after);
      landed.push(...[put, after].filter((text): text is string => text !== undefined && text !== ''));
      details.push(filledDetail(fills.how, done, put));
    } else {
      details.push(intoPasswordField ? maskedDetail(piece.action) : done);
    }
  }
  // A key sequence performed in parts is told as the operator tells one: "pressed <its keys>".
  if (action.action === 'key' && pieces.length > 1 && details.every((detail, index) => detail === `pressed ${(pieces[index]!.action as { keys: string }).keys}`)) {
    details.splice(0, details.length, `pressed ${action.keys}`);
  }
  // What the field holds now, for the turn to check for configured secrets however they were put together.
  const typedFieldText = !intoPasswordField && typedText(action) !== '' ? await fieldText(options.operator) : undefined;
  const heldText = typedFieldText === undefined ? {} : { typedFieldText };
  const capture = await options.screen.capture(action.action !== 'screenshot');
  // Read once the screen has settled: a navigation the action started and the operator refused is known by then.
  const notices = options.operator.takeNotices?.() ?? [];
  const detail = [details.join('; '), ...notices].join('\n');
  const parts: MessagePart[] = [{ type: 'text', text: detail }];
  // The step row keeps how the screen settled; the model is told only when it had not.
  const settle = capture.settle === undefined ? {} : { settle: capture.settle };
  if (capture.settle?.settled === false) parts.push({ type: 'text', text: unsettledNotice(capture.settle.maxMs) });
  if (capture.kind === 'new') {
    parts.push({ type: 'image', imageId: capture.imageId });
    return { parts, record: { action: recorded(), result: { ok: true, detail, screenshotImageId: capture.imageId, ...settle, ...pressed() }, ...masking(), ...heldText } };
  }
  parts.push({ type: 'text', text: unchangedNotice(capture.sameAs) });
  return {
    parts,
    record: { action: recorded(), result: { ok: true, detail, unchanged: true, ...settle, ...pressed() }, dedupOfImageId: capture.sameAs, ...masking(), ...heldText },
  };
}

/** A refusal or a failure, after the pieces already done (if any), which the model is told of first. */
function stoppedPartWay(details: readonly string[], why: string, record: ToolStepRecord): ToolResult {
  const text = details.length === 0 ? why : `${details.join('; ')}; then stopped: ${why}`;
  return { parts: [{ type: 'text', text }], isError: true, record };
}

interface GateOutcome {
  /** What the model is told when the action may not run; undefined when it may. */
  refusal?: string | undefined;
  /** What had the focus when the action was judged ('unknown' when it neither types nor presses Enter, so was not asked). */
  focusedFieldKind: FocusReading['fieldKind'];
  /** The action pastes into the focused password field, or drops dragged text on one: where its text lands. */
  fillsPassword?: { how: 'pasted' | 'dropped'; at: 'focused' | DropPlace } | undefined;
}

/**
 * Judges one part of an action against what it will meet, and asks when the policy says so. `judged` is what
 * the question is about: the whole action for its first part, the part itself for the others. A later part of
 * a key sequence is asked about only for what the focus it meets makes risky (its combinations were judged
 * with the whole, and under `always` the person answered for the whole).
 */
async function confirmIfNeeded(piece: PerformedPiece, judged: ComputerAction, call: ToolCallScope, options: ComputerToolOptions): Promise<GateOutcome> {
  const { operator } = options;
  const pasting = pastes(judged);
  const middlePaste = judged.action === 'middle_click' && operator.middleClickPastes === true;
  // Enter is judged by the focused application, which only an operator with focus() can tell.
  const asksFocus = typesText(judged) || pasting || (pressesEnter(judged) && operator.focus !== undefined) || (middlePaste && operator.fieldKindAt === undefined);
  const focus = asksFocus ? await focusMet(piece, operator) : { fieldKind: 'unknown' as const };
  const focusedFieldKind = focus.fieldKind;
  const drop = dropPlace(judged);
  const dropFieldKind = drop === undefined ? undefined : await readFieldAt(operator, drop, call);
  // A middle click pastes where it clicks: the field there, or, where the operator cannot tell it, the focused one.
  const middleClickFieldKind = !middlePaste ? undefined : operator.fieldKindAt === undefined ? focusedFieldKind : await readFieldAt(operator, { x: judged.x, y: judged.y }, call);
  const fillsPassword =
    pasting && focusedFieldKind === 'password'
      ? { how: 'pasted' as const, at: 'focused' as const }
      : drop !== undefined && dropFieldKind === 'password'
        ? { how: 'dropped' as const, at: drop }
        : judged.action === 'middle_click' && middleClickFieldKind === 'password'
          ? { how: 'pasted' as const, at: operator.fieldKindAt === undefined ? ('focused' as const) : { x: judged.x, y: judged.y } }
          : undefined;
  const evidence = { focusedFieldKind, focusedApplication: focus.application, redactSecrets: options.redactSecrets, dropFieldKind, middleClickFieldKind };
  const risk = piece.continuesKeys ? focusRisk(judged, evidence) : assessRisk(judged, evidence);
  const policy = piece.continuesKeys && options.policy === 'always' ? 'risky' : options.policy;
  if (!needsConfirmation(policy, risk, judged)) return { focusedFieldKind, fillsPassword };
  const reason = confirmationReason(policy, risk, judged);
  // The person decides on that the action types into a password field, and how much; never on what. A
  // paste or a drop is shown as it is: its keys and points hold none of what it puts there.
  const shown = focusedFieldKind === 'password' && typesText(judged) ? maskedForApproval(judged) : judged;
  const answer = await askConfirmation(shown, reason, call, options.confirm);
  return { focusedFieldKind, fillsPassword, refusal: answer.approved ? undefined : refusalText(answer, reason) };
}

/** How long a part of an action waits, after a key that may have moved the focus, for a navigation that key started. */
const FOCUS_MOVE_WAIT_MS = 2000;

/**
 * The focus a part of an action meets. After a key that may have moved it, a navigation the key started is
 * waited for first; and where the operator's reading may lag behind the key (the desktop), a reading that
 * does not say password field may be the field before the key: it counts as 'unknown', for the secret
 * heuristics to judge what is typed.
 */
async function focusMet(piece: PerformedPiece, operator: Operator): Promise<FocusReading> {
  if (!piece.afterFocusMove) return readFocus(operator);
  await operator.waitForPendingWork?.(FOCUS_MOVE_WAIT_MS).catch(() => undefined);
  const reading = await readFocus(operator);
  if (operator.focusCurrentAfterKeys === true || reading.fieldKind === 'password') return reading;
  return { ...reading, fieldKind: 'unknown' };
}

/** The field under where a drag or a mouse_up lets go, as the operator can tell it (in the call's view). */
async function readFieldAt(operator: Operator, place: DropPlace, call: ToolCallScope): Promise<FocusReading['fieldKind']> {
  if (operator.fieldKindAt === undefined || call.shown === undefined) return 'unknown';
  return operator.fieldKindAt(place, call.shown.view);
}

/** A password field's text where the operator can read it; undefined otherwise (the desktop, a failed read). */
async function passwordText(operator: Operator, place: 'focused' | DropPlace, view: ModelView): Promise<string | undefined> {
  try {
    return await operator.passwordFieldText?.(place, view);
  } catch {
    return undefined;
  }
}

/** The focused field's text where the operator can read it; undefined otherwise (the desktop, a failed read). */
async function fieldText(operator: Operator): Promise<string | undefined> {
  try {
    return await operator.focusedFieldText?.();
  } catch {
    return undefined;
  }
}

/** The focus as the operator can tell it: field and application, or only the field, or nothing ('unknown'). */
async function readFocus(operator: Operator): Promise<FocusReading> {
  if (operator.focus !== undefined) return operator.focus();
  if (operator.focusedFieldKind !== undefined) return { fieldKind: await operator.focusedFieldKind() };
  return { fieldKind: 'unknown' };
}

/** A flat arguments object without its null fields (models prompted with one flat schema send unused ones as null). */
export function withoutNullFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}
