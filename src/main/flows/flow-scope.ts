/**
 * The names a template may reference at one point of a flow, and the check of a template against them. A
 * name is defined by `vars:`/`params:` (and --var), an earlier `extract`'s `as:`, an enclosing `for_each`'s
 * `as:`, or, in a sub-flow, `use`'s `with:` (which fills its params and vars). `${env.NAME}` is read here, at
 * load time, and its value written into the text (escaped, so a `${` in it stays literal).
 */
import type { Scalar } from 'yaml';
import { closestName } from '../../shared/suggestions.js';
import type { FlowNodes } from './flow-nodes.js';
import { escapeTemplateText, excerpt, parseTemplate } from './templates.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export class Scope {
  constructor(
    readonly names: ReadonlySet<string>,
    readonly secrets: ReadonlySet<string>,
  ) {}

  with(...names: string[]): Scope {
    return new Scope(new Set([...this.names, ...names]), this.secrets);
  }

  has(name: string): boolean {
    return this.names.has(name) || this.secrets.has(name);
  }
}

/** A scalar's text as a template ready for the runner: env read, every reference defined. */
export function checkedTemplate(nodes: FlowNodes, scalar: Scalar<string>, scope: Scope, env: Environment): string {
  const text = scalar.value;
  const { parts, problems } = parseTemplate(text);
  const report = (start: number, message: string) => nodes.source.problemAt(nodes.source.atOffset(nodes.offsetIn(scalar, start)), message);
  for (const problem of problems) report(problem.start, problem.message);
  let result = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      result += escapeTemplateText(part);
      continue;
    }
    const raw = excerpt(part.raw);
    if (part.root === 'env') {
      const [name, ...rest] = part.path;
      if (typeof name !== 'string' || rest.length > 0) {
        report(part.start, `${raw}: expected \${env.NAME}, an environment variable by its name`);
      } else if (env[name] === undefined) {
        report(part.start, `environment variable ${name} is not set (${raw})`);
      } else {
        result += escapeTemplateText(env[name] ?? '');
      }
      continue;
    }
    if (scope.secrets.has(part.root)) {
      if (part.path.length > 0) report(part.start, `${raw}: ${part.root} is a secret, a text without fields`);
      result += part.raw;
      continue;
    }
    if (!scope.names.has(part.root)) report(part.start, undefinedVariable(part.root, raw, scope));
    result += part.raw;
  }
  return result;
}

export function undefinedVariable(name: string, raw: string, scope: Scope): string {
  const known = [...scope.names, ...scope.secrets];
  const suggestion = closestName(name, known);
  const hint = suggestion === undefined ? '' : `; did you mean ${suggestion}?`;
  const listing = known.length === 0 ? 'no variables are defined here' : `defined here: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''}`;
  return `undefined variable ${name} in ${raw}${hint} (${listing})`;
}
