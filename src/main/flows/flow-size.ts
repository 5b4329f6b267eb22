/**
 * A flow's rendered size, known at load from lengths alone: each var's text with its references counted as the
 * lengths of what they name, then each step's text. A var that references an earlier one ten times, level after
 * level, is refused at its own line before anything is expanded; the runner's renderTemplate bounds what only a
 * run can know (an extract's answer, a sub-flow's `with:` values).
 */
import type { Flow, FlowStep, SourceAt } from './flow-model.js';
import type { FlowFileProblem } from './flow-source.js';
import { MAX_RENDERED_FLOW_CHARS, MAX_RENDERED_TEXT_CHARS, renderedLength, sizeName, templateValue, type TemplateReference } from './templates.js';

/**
 * The first bound the flow passes, or undefined: its vars and step texts against MAX_RENDERED_TEXT_CHARS each,
 * all of them against MAX_RENDERED_FLOW_CHARS. `given` are the values from outside (--var) by name; a name whose
 * value only a run gives (a param without one, an extract's `as:`) counts as empty here.
 */
export function flowSizeProblem(flow: Flow, varsAt: Readonly<Record<string, SourceAt>>, given: Readonly<Record<string, string>>): FlowFileProblem | undefined {
  const lengths = new Map<string, number>();
  const values: Record<string, unknown> = {};
  for (const secret of flow.secrets) lengths.set(secret, `{{${secret}}}`.length);
  for (const [name, value] of Object.entries(given)) lengths.set(name, value.length);
  const lengthOf = (reference: TemplateReference): number => {
    if (reference.path.length === 0 || !Object.hasOwn(values, reference.root)) return lengths.get(reference.root) ?? 0;
    try {
      return rendered(templateValue(reference.raw, values)).length;
    } catch {
      return 0;
    }
  };
  let total = 0;
  const tooLong = (at: SourceAt, what: string, limit: number): FlowFileProblem => ({
    file: at.file,
    line: at.line,
    column: at.column,
    message:
      limit === MAX_RENDERED_FLOW_CHARS
        ? `${what}: with it the flow's rendered texts pass ${sizeName(limit)}, the most a flow may hold`
        : `${what}: rendered, it would be longer than ${sizeName(limit)}, the most a text of a flow may be; each \${…} repeats its variable's whole text`,
  });
  let last = 0;
  const count = (text: string, at: SourceAt, what: string): FlowFileProblem | undefined => {
    last = renderedLength(text, lengthOf, MAX_RENDERED_TEXT_CHARS);
    if (last > MAX_RENDERED_TEXT_CHARS) return tooLong(at, what, MAX_RENDERED_TEXT_CHARS);
    total += last;
    return total > MAX_RENDERED_FLOW_CHARS ? tooLong(at, what, MAX_RENDERED_FLOW_CHARS) : undefined;
  };

  for (const [name, value] of Object.entries(flow.vars)) {
    const at = varsAt[name] ?? { file: flow.file, line: 1, column: 1 };
    if (Object.hasOwn(given, name)) continue;
    if (typeof value !== 'string') {
      // Not rendered: JSON, as long as the file that holds it.
      values[name] = value;
      lengths.set(name, rendered(value).length);
      continue;
    }
    const problem = count(value, at, `variable ${name}`);
    if (problem !== undefined) return problem;
    lengths.set(name, last);
  }
  const target = flow.target;
  const urlProblem = target?.url === undefined ? undefined : count(target.url, target.at, 'target url');
  return urlProblem ?? stepsProblem(flow.steps, count);
}

function stepsProblem(steps: readonly FlowStep[], count: (text: string, at: SourceAt, what: string) => FlowFileProblem | undefined): FlowFileProblem | undefined {
  for (const step of steps) {
    const texts: string[] = [];
    if ('text' in step) texts.push(step.text);
    if (step.kind === 'goto') texts.push(step.url);
    if (step.kind === 'javascript') texts.push(step.code);
    if (step.kind === 'note') texts.push(step.title, step.content);
    if (step.kind === 'use') for (const value of Object.values(step.with)) if (typeof value === 'string') texts.push(value);
    for (const text of texts) {
      const problem = count(text, step.at, `the ${step.label} step`);
      if (problem !== undefined) return problem;
    }
    const inner = step.kind === 'if' ? [...step.then, ...step.else] : step.kind === 'for_each' || step.kind === 'group' ? step.steps : [];
    const problem = stepsProblem(inner, count);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function rendered(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
