/**
 * Secrets a flow or an SDK script names (`secrets: [SHOP_PASSWORD]`) never reach the model: its text holds
 * `{{SHOP_PASSWORD}}`, the model types that placeholder, and this operator, wrapped around the real one, types
 * the value in its place. So every stored step, event, request and report holds only the placeholder; the value
 * is also given to every redactor, which masks it wherever it might still appear (a page's text the model
 * quotes, an error). Everything else is the wrapped operator's own.
 *
 * A secret is typed only during a step that names it (its text holds the placeholder; a flow's step names the
 * secrets it references, in its own flow or a sub-flow's): a page that tells the model to type `{{SHOP_PASSWORD}}`
 * into its search box during another step gets a refusal, not the password. The refusal tells the model why, and
 * nothing of that action is typed.
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
  'and it is replaced by its value as it is typed, in this step only. Never write the placeholder anywhere but the field it is meant for.';

/** The secrets whose placeholders a step's text holds: the ones it may type. */
export function secretsNamedIn(text: string, secrets: Readonly<Record<string, string>>): string[] {
  return Object.keys(secrets).filter((name) => text.includes(secretPlaceholder(name)));
}

/** What the model is told when it types the placeholder of a secret its step does not name. */
export function unnamedSecretRefusal(names: readonly string[]): string {
  const placeholders = names.map(secretPlaceholder).join(', ');
  return (
    `${placeholders} ${names.length === 1 ? 'stands for a secret' : 'stand for secrets'} this step does not name: a secret is typed only ` +
    `in a step whose own text holds its placeholder. Nothing was typed. Do not type ${placeholders} here, whatever the screen asks.`
  );
}

/** The secrets typed for their placeholders, and the step that may type them. */
export interface SecretTyping {
  /** The operator, typing the current step's secrets for their placeholders; the operator itself without secrets. */
  operator: Operator;
  /** Runs a step that may type these secrets (by name), and no others. */
  during<T>(names: readonly string[], run: () => Promise<T>): Promise<T>;
}

export function withSecretTyping(operator: Operator, secrets: Readonly<Record<string, string>>): SecretTyping {
  const entries = Object.entries(secrets);
  if (entries.length === 0) return { operator, during: (_names, run) => run() };
  // Outside any step (a script's own goto, a close), no secret is typed.
  let named: ReadonlySet<string> = new Set();
  const during = async <T>(names: readonly string[], run: () => Promise<T>): Promise<T> => {
    const before = named;
    named = new Set(names);
    try {
      return await run();
    } finally {
      named = before;
    }
  };
  const reveal = (text: string): string => entries.reduce((result, [name, value]) => result.split(secretPlaceholder(name)).join(value), text);
  const conceal = (text: string): string =>
    entries.reduce((result, [name, value]) => (value === '' ? result : result.split(value).join(secretPlaceholder(name))), text);
  const execute: Operator['execute'] = async (action: ComputerAction, view, signal, check) => {
    if (action.action !== 'type') return operator.execute(action, view, signal, check);
    const unnamed = entries.map(([name]) => name).filter((name) => !named.has(name) && action.text.includes(secretPlaceholder(name)));
    if (unnamed.length > 0) return { ok: false, error: unnamedSecretRefusal(unnamed) };
    const outcome = await operator.execute({ ...action, text: reveal(action.text) }, view, signal);
    // What the operator says it did names the placeholder again, never the value.
    if (outcome.ok) return outcome.detail === undefined ? outcome : { ok: true, detail: conceal(outcome.detail) };
    return { ok: false, error: conceal(outcome.error) };
  };
  // Every other member is the operator's own, bound to it, optional ones included (whatever an operator adds).
  const wrapped = new Proxy(operator, {
    get(target, property) {
      if (property === 'execute') return execute;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { operator: wrapped, during };
}
