/**
 * What OpenAI's computer tool needs to mask a call that typed into a password field: which of its actions
 * typed, and where each is in the call's own arguments (`action.text`, `actions[2].keys`).
 */
import { isComputerAction, type ComputerAction } from '../../../shared/actions.js';
import type { Operator } from '../../operators/operator.js';
import { typedField, typedText, type ArgumentPath } from '../password-masking.js';
import { typesText } from '../safety-policy.js';
import type { OpenAiComputerArguments } from './openai-computer-actions.js';
import type { ToolResult, ToolStepRecord, WrittenTyping } from './tool-definition.js';

/**
 * What the actions of one call typed into a password field, and where each is in the call's arguments
 * (`action.text`, `actions[2].keys`): OpenAI's keypress names its keys as a list, one letter per entry.
 */
export class PasswordTyping {
  private readonly typed = new Set<string>();
  private readonly paths: ArgumentPath[] = [];
  /** What its pastes and drops put into password fields: masked by value, since the call holds none of it. */
  private readonly pasted = new Set<string>();

  add(result: ToolResult, actionPath: ArgumentPath): void {
    for (const text of result.record?.pastedIntoPasswordField ?? []) this.pasted.add(text);
    const typed = result.record?.typedIntoPasswordField;
    if (typed === undefined) return;
    for (const text of typed) this.typed.add(text);
    // OpenAI's `type` holds its text in `text`, its `keypress` its keys in `keys`: the fields of the neutral action.
    const action = computerActionOf(result);
    const field = action === undefined ? undefined : typedField(action);
    if (field !== undefined) this.paths.push([...actionPath, field]);
  }

  record(): Pick<ToolStepRecord, 'typedIntoPasswordField' | 'typedArgumentPaths' | 'pastedIntoPasswordField'> {
    return {
      ...(this.typed.size === 0 ? {} : { typedIntoPasswordField: [...this.typed], typedArgumentPaths: this.paths }),
      ...(this.pasted.size === 0 ? {} : { pastedIntoPasswordField: [...this.pasted] }),
    };
  }
}

/** Where the call's first action is in its arguments: the one `action`, or the first of `actions`. */
export function firstActionPath(argumentsValue: OpenAiComputerArguments): ArgumentPath {
  return argumentsValue.actions === undefined ? ['action'] : ['actions', 0];
}

/** Whether the action types and a password field has the focus (asked only of an action that types). */
export async function typesIntoPasswordField(action: ComputerAction, operator: Operator): Promise<boolean> {
  if (!typesText(action) || operator.focusedFieldKind === undefined) return false;
  return (await operator.focusedFieldKind()) === 'password';
}

export function computerActionOf(result: ToolResult): ComputerAction | undefined {
  const action = result.record?.action;
  return action !== undefined && isComputerAction(action) ? action : undefined;
}

/**
 * The call's actions that type outside a password field, run or not, each with where the call's arguments
 * hold what it types (`action.keys`, `actions[2].text`): what the turn joins with the session's other typing
 * to find a secret spelled one keypress at a time. `intoPasswordField` says which were masked as passwords.
 */
export function writtenTypingOf(
  actions: readonly ComputerAction[],
  argumentsValue: OpenAiComputerArguments,
  intoPasswordField: (index: number) => boolean,
): WrittenTyping[] {
  return actions.flatMap((action, index) => {
    const field = typedField(action);
    if (field === undefined || typedText(action) === '' || intoPasswordField(index)) return [];
    const actionPath = index === 0 ? firstActionPath(argumentsValue) : ['actions', index];
    return [{ action, path: [...actionPath, field] }];
  });
}
