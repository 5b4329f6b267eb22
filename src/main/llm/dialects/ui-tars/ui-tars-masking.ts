/**
 * A UI-TARS reply is stored as the model wrote it, "Thought: … Action: type(content='…')", and that text is
 * what later requests send back as the model's own turn. When an action typed into a password field, its
 * written form is replaced by the same action with the text masked, so the stored reply stays in the
 * grammar the model reads and no longer holds what was typed: `type(content='[password]')`,
 * `hotkey(key='[password]')`. A short secret spelled one key per action (`hotkey(key='h')`) is masked this
 * way too, where masking by value would leave a single letter in place.
 */
import { textOfParts, type AssistantMessage, type MessagePart } from '../../../../shared/messages.js';
import { parseUiTarsReply } from './ui-tars-reply.js';

/** The reply with the action that made the call `callId` written masked; unchanged when it cannot be found. */
export function maskUiTarsWrittenCall(message: AssistantMessage, callId: string, masked: string): AssistantMessage {
  // The wire turns the reply's steps into calls in order, before any call the server parsed itself.
  const stepIndex = message.toolCalls.filter((call) => call.inText === true).findIndex((call) => call.id === callId);
  if (stepIndex === -1) return message;
  const reply = parseUiTarsReply(textOfParts(message.parts));
  const action = reply.actionOfStep[stepIndex];
  if (action === undefined) return message;
  const writtenActions = writtenTexts(reply);
  const target = writtenActions[action];
  if (target === undefined || target === '') return message;
  const start = startOfAction(textOfParts(message.parts), writtenActions, action);
  if (start === undefined) return message;
  const submits = reply.steps.some((step, index) => reply.actionOfStep[index] === action && step.kind === 'computer' && step.action.action === 'key' && step.action.keys === 'Return');
  return { ...message, parts: replacedInParts(message.parts, start, target.length, maskedAction(target, masked, submits)) };
}

/** Each written action's text, by its index. */
function writtenTexts(reply: ReturnType<typeof parseUiTarsReply>): string[] {
  const texts: string[] = [];
  reply.steps.forEach((step, index) => {
    const action = reply.actionOfStep[index]!;
    texts[action] ??= step.written;
  });
  return texts;
}

/**
 * Where the action begins in the reply's text: the written actions are found in order, each after the one
 * before it, so an action written twice is told apart by its place. An action's text that cannot be found
 * (an excerpt of an unreadable one) is passed over.
 */
function startOfAction(text: string, writtenActions: readonly string[], action: number): number | undefined {
  let cursor = 0;
  for (let index = 0; index <= action; index += 1) {
    const written = writtenActions[index];
    if (written === undefined || written === '') continue;
    const found = text.indexOf(written, cursor);
    if (found === -1) {
      if (index === action) return undefined;
      continue;
    }
    if (index === action) return found;
    cursor = found + written.length;
  }
  return undefined;
}

/** `type(content='[password]')`, or `hotkey(key='[password]')`: the action's name kept, its text masked. */
function maskedAction(written: string, masked: string, submits: boolean): string {
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(written)?.[0] ?? 'type';
  const argument = name === 'hotkey' ? 'key' : 'content';
  return `${name}(${argument}='${masked}${submits ? '\\n' : ''}')`;
}

/** The parts with `length` characters at `start` of their text (joined as textOfParts joins them) replaced. */
function replacedInParts(parts: readonly MessagePart[], start: number, length: number, replacement: string): MessagePart[] {
  let offset = 0;
  let replaced = false;
  return parts.map((part) => {
    if (part.type !== 'text') return part;
    const partStart = offset;
    offset += part.text.length + PART_SEPARATOR.length;
    const within = start - partStart;
    if (replaced || within < 0 || within + length > part.text.length) return part;
    replaced = true;
    return { ...part, text: part.text.slice(0, within) + replacement + part.text.slice(within + length) };
  });
}

/** What textOfParts puts between two text parts. */
const PART_SEPARATOR = '\n\n';
