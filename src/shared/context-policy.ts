/**
 * How history is rendered into a request, as a setting (`context.policy`): Sightline's zones (the default),
 * `keep-last:N` (only the N most recent images, the rest dropped, as the UI-TARS desktop and Anthropic's demo
 * do) or `keep-all` (every image whole). The setting is text, so that config.json, SIGHTLINE_CONTEXT_POLICY and
 * --context-policy all take the same words; the request builder takes the parsed form.
 */

export type ContextPolicy = { kind: 'sightline' } | { kind: 'keep-all' } | { kind: 'keep-last'; images: number };

export const DEFAULT_CONTEXT_POLICY_TEXT = 'sightline';

/** What a valid value looks like, for error messages and help text. */
export const CONTEXT_POLICY_FORMS = 'sightline, keep-all or keep-last:N (N a whole number from 1, e.g. keep-last:3)';

const KEEP_LAST = /^keep-last:([1-9][0-9]{0,5})$/;

/** The policy a text names, or undefined when it names none (keep-last:0, keep-last:x, window …). */
export function parseContextPolicy(text: string): ContextPolicy | undefined {
  if (text === 'sightline') return { kind: 'sightline' };
  if (text === 'keep-all') return { kind: 'keep-all' };
  const keepLast = KEEP_LAST.exec(text);
  return keepLast === null ? undefined : { kind: 'keep-last', images: Number(keepLast[1]) };
}

/** For a text the schema has already accepted: a policy, or an error naming the valid forms. */
export function contextPolicyOf(text: string): ContextPolicy {
  const policy = parseContextPolicy(text);
  if (policy === undefined) throw new Error(`context.policy: expected ${CONTEXT_POLICY_FORMS}, got ${JSON.stringify(text)}`);
  return policy;
}

/** The text form, as config.json holds it and the bench names its columns. */
export function contextPolicyText(policy: ContextPolicy): string {
  return policy.kind === 'keep-last' ? `keep-last:${policy.images}` : policy.kind;
}
