/**
 * `${…}` templates in flow text: `${name}`, `${name.field}`, `${name.0.field}` or `${name[0].field}`,
 * `${env.NAME}`, and `$${` for a literal `${`. The file loader checks them (syntax, and that every name is
 * defined) before anything runs; the runner renders them step by step, when the variables have values. A
 * secret renders as `{{NAME}}`: the model sees the placeholder and the operator types the real value, so the
 * value itself never reaches the model, its context or the session's records.
 */

export interface TemplateReference {
  /** The whole reference as written, `${item.name}`. */
  raw: string;
  /** Where `${` starts in the text, and just past the closing `}`. */
  start: number;
  end: number;
  /** The variable: `item` in `${item.name}`, `env` in `${env.HOME}`. */
  root: string;
  /** Field names and array indexes after the root: `['name']`, `[0, 'field']`. */
  path: (string | number)[];
}

export interface TemplateSyntaxProblem {
  /** Where the faulty `${` starts in the text. */
  start: number;
  message: string;
}

type TemplatePart = string | TemplateReference;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SEGMENT = /^(?:\.([A-Za-z0-9_]+)|\[(\d+)\])/;
/** An excerpt in a message is cut: a template can be as long as the text that holds it. */
const EXCERPT_LIMIT = 60;

/** A name a flow can define and reference: `${total}`, an `as:`, a `vars:` key, a secret. */
export function isTemplateName(name: string): boolean {
  return NAME.test(name);
}

/** The text split into literal pieces (with `$${` already turned into `${`) and references, and what is malformed. */
export function parseTemplate(text: string): { parts: TemplatePart[]; problems: TemplateSyntaxProblem[] } {
  const parts: TemplatePart[] = [];
  const problems: TemplateSyntaxProblem[] = [];
  let literal = '';
  let index = 0;
  while (index < text.length) {
    if (text.startsWith('$${', index)) {
      literal += '${';
      index += 3;
      continue;
    }
    if (!text.startsWith('${', index)) {
      literal += text[index];
      index += 1;
      continue;
    }
    const close = text.indexOf('}', index + 2);
    if (close === -1) {
      problems.push({ start: index, message: `${excerpt(text.slice(index))} has no closing }; write $\${ for a literal \${` });
      literal += text.slice(index);
      break;
    }
    const raw = text.slice(index, close + 1);
    const reference = readReference(text.slice(index + 2, close));
    if (reference === undefined) {
      problems.push({
        start: index,
        message: `${excerpt(raw)} is not a reference; expected a name like \${total}, \${item.name} or \${env.HOME} (write $\${ for a literal \${)`,
      });
      literal += raw;
    } else {
      if (literal !== '') parts.push(literal);
      literal = '';
      parts.push({ raw, start: index, end: close + 1, ...reference });
    }
    index = close + 1;
  }
  if (literal !== '') parts.push(literal);
  return { parts, problems };
}

function readReference(inner: string): Pick<TemplateReference, 'root' | 'path'> | undefined {
  const body = inner.trim();
  const rootMatch = /^[A-Za-z_][A-Za-z0-9_]*/.exec(body);
  if (rootMatch === null) return undefined;
  const path: (string | number)[] = [];
  let rest = body.slice(rootMatch[0].length);
  while (rest !== '') {
    const segment = SEGMENT.exec(rest);
    if (segment === null) return undefined;
    const field = segment[1];
    const index = segment[2];
    if (index !== undefined) path.push(Number(index));
    else if (field !== undefined) path.push(/^\d+$/.test(field) ? Number(field) : field);
    rest = rest.slice(segment[0].length);
  }
  return { root: rootMatch[0], path };
}

/** Every well-formed reference in a text, in order (malformed ones are what `parseTemplate` reports). */
export function templateReferences(text: string): TemplateReference[] {
  return parseTemplate(text).parts.filter((part): part is TemplateReference => typeof part !== 'string');
}

/** The reference when the text is exactly one `${…}` and nothing else (what `for_each:` takes), else undefined. */
export function soleReference(text: string): TemplateReference | undefined {
  const { parts, problems } = parseTemplate(text);
  const only = parts[0];
  return problems.length === 0 && parts.length === 1 && typeof only !== 'string' ? only : undefined;
}

/** A literal text made safe to put where a template is read: every `${` becomes `$${`. */
export function escapeTemplateText(text: string): string {
  return text.split('${').join('$${');
}

/** Why a template could not be rendered: a variable without a value, a missing field, a malformed reference. */
export class TemplateError extends Error {
  override name = 'TemplateError';
}

/**
 * How long one rendered text may be (a variable, a step's text, a URL), and all of a flow's together. A reference
 * repeats its variable's text, so ten references a level make a 567-byte file a 100-million-character prompt:
 * these bounds are checked at load from the lengths alone, and rendering stops as soon as one is passed.
 */
export const MAX_RENDERED_TEXT_CHARS = 1024 * 1024;
export const MAX_RENDERED_FLOW_CHARS = 10 * 1024 * 1024;

/** "1 MB", for messages. */
export function sizeName(chars: number): string {
  return `${Math.round((chars / (1024 * 1024)) * 10) / 10} MB`;
}

export interface RenderOptions {
  /** Names of the flow's secrets: each renders as `{{NAME}}`, never as its value. */
  secrets: readonly string[] | ReadonlySet<string>;
  /** At most this many characters, MAX_RENDERED_TEXT_CHARS unless given. */
  limit?: number;
}

/** A rendering that would pass its bound: stopped there, the long text never built. */
export class TemplateTooLongError extends TemplateError {
  override name = 'TemplateTooLongError';

  constructor(readonly limit: number) {
    super(`rendered, it would be longer than ${sizeName(limit)}, the most a text of a flow may be (each \${…} repeats its variable's text)`);
  }
}

/**
 * The text with every reference replaced by its value: strings as they are, numbers and booleans with
 * String(), null, objects and arrays as JSON. Throws a TemplateError for a reference without a value, and a
 * TemplateTooLongError as soon as the text would pass its bound.
 */
export function renderTemplate(text: string, scope: Readonly<Record<string, unknown>>, options: RenderOptions): string {
  const { parts, problems } = parseTemplate(text);
  const problem = problems[0];
  if (problem !== undefined) throw new TemplateError(problem.message);
  const secrets = new Set(options.secrets);
  const limit = options.limit ?? MAX_RENDERED_TEXT_CHARS;
  let rendered = '';
  for (const part of parts) {
    let piece: string;
    if (typeof part === 'string') piece = part;
    else if (secrets.has(part.root)) {
      if (part.path.length > 0) throw new TemplateError(`${excerpt(part.raw)}: ${part.root} is a secret, a text without fields`);
      piece = `{{${part.root}}}`;
    } else piece = renderedValue(lookUp(part, scope));
    if (rendered.length + piece.length > limit) throw new TemplateTooLongError(limit);
    rendered += piece;
  }
  return rendered;
}

/**
 * How long the text would be rendered, from the length each reference gives (`lengthOf`), without building it;
 * counting stops as soon as it passes `limit` (the result is then above it, not exact).
 */
export function renderedLength(text: string, lengthOf: (reference: TemplateReference) => number, limit: number): number {
  let length = 0;
  for (const part of parseTemplate(text).parts) {
    length += typeof part === 'string' ? part.length : lengthOf(part);
    if (length > limit) return length;
  }
  return length;
}

/** The value a text that is exactly one reference points at, unrendered (an array for `for_each:`). */
export function templateValue(text: string, scope: Readonly<Record<string, unknown>>): unknown {
  const reference = soleReference(text);
  if (reference === undefined) throw new TemplateError(`${excerpt(text)} is not a single reference like \${items}`);
  return lookUp(reference, scope);
}

function lookUp(reference: TemplateReference, scope: Readonly<Record<string, unknown>>): unknown {
  if (!Object.hasOwn(scope, reference.root)) throw new TemplateError(`${excerpt(reference.raw)}: ${reference.root} has no value`);
  let value: unknown = scope[reference.root];
  let reached = reference.root;
  for (const segment of reference.path) {
    const container = value;
    const found =
      typeof segment === 'number'
        ? Array.isArray(container) && segment < container.length
        : container !== null && typeof container === 'object' && !Array.isArray(container) && Object.hasOwn(container, segment);
    if (!found) {
      const what = typeof segment === 'number' ? `no item ${segment}` : `no field ${segment}`;
      throw new TemplateError(`${excerpt(reference.raw)}: ${reached} has ${what} (it is ${describeShape(container)})`);
    }
    value = (container as Record<string | number, unknown>)[segment];
    reached += typeof segment === 'number' ? `[${segment}]` : `.${segment}`;
  }
  return value;
}

function renderedValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

function describeShape(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** A piece of a template for a message: cut when long, so a message never carries a whole page of text. */
export function excerpt(text: string): string {
  return text.length <= EXCERPT_LIMIT ? text : `${text.slice(0, EXCERPT_LIMIT - 1)}…`;
}
