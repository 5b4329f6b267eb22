/**
 * Secrets a flow or an SDK script names (`secrets: [SHOP_PASSWORD]`) never reach the model: its text holds
 * `{{SHOP_PASSWORD}}`, the model types that placeholder, and this operator, wrapped around the real one, types
 * the value in its place. So every stored step, event, request and report holds only the placeholder; the value
 * is also given to every redactor, which masks it wherever it might still appear (a page's text the model
 * quotes, an error). Everything else is the wrapped operator's own.
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { Operator } from '../operators/operator.js';

/** `{{NAME}}`, as the model is shown a secret and types it. */
export function secretPlaceholder(name: string): string {
  return `{{${name}}}`;
}

/** Said once to the model in a request that holds a placeholder, so it types the braces as they are. */
export const SECRET_PLACEHOLDER_NOTE =
  'Text in double braces, such as {{NAME}}, stands for a secret: type it exactly as written, braces included, ' +
  'and it is replaced by its value as it is typed. Never write the placeholder anywhere but the field it is meant for.';

export function hasSecretPlaceholder(text: string, secrets: Readonly<Record<string, string>>): boolean {
  return Object.keys(secrets).some((name) => text.includes(secretPlaceholder(name)));
}

/** The operator, typing secrets' values for their placeholders; itself when there are no secrets. */
export function withSecretTyping(operator: Operator, secrets: Readonly<Record<string, string>>): Operator {
  const entries = Object.entries(secrets);
  if (entries.length === 0) return operator;
  const reveal = (text: string): string => entries.reduce((result, [name, value]) => result.split(secretPlaceholder(name)).join(value), text);
  const conceal = (text: string): string =>
    entries.reduce((result, [name, value]) => (value === '' ? result : result.split(value).join(secretPlaceholder(name))), text);
  const execute: Operator['execute'] = async (action: ComputerAction, view, signal) => {
    if (action.action !== 'type') return operator.execute(action, view, signal);
    const outcome = await operator.execute({ ...action, text: reveal(action.text) }, view, signal);
    // What the operator says it did names the placeholder again, never the value.
    if (outcome.ok) return outcome.detail === undefined ? outcome : { ok: true, detail: conceal(outcome.detail) };
    return { ok: false, error: conceal(outcome.error) };
  };
  // Every other member is the operator's own, bound to it, optional ones included (whatever an operator adds).
  return new Proxy(operator, {
    get(target, property) {
      if (property === 'execute') return execute;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
