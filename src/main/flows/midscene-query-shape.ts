/**
 * Midscene's aiQuery describes the answer's shape in words before its request: `{name: string, price:
 * number}[], the items in the cart`. Where that shape reads as a TypeScript-like type (string, number,
 * boolean, integer, null, any, object, quoted literals, `{key: type}` with `key?` for optional, `T[]`,
 * `Array<T>`, `A | B`, parentheses), it becomes a JSON schema and the rest is the request. Anything else is not
 * guessed at: the caller keeps the whole prompt and takes any JSON value.
 */
import type { JsonSchema } from './flow-model.js';

const PRIMITIVES: Record<string, JsonSchema> = {
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
  object: { type: 'object' },
  any: {},
  unknown: {},
};

const MAX_DEPTH = 20;

class ShapeReader {
  index = 0;
  constructor(readonly text: string) {}

  skipSpace(): void {
    while (this.index < this.text.length && /\s/.test(this.text[this.index] ?? '')) this.index += 1;
  }

  peek(token: string): boolean {
    this.skipSpace();
    return this.text.startsWith(token, this.index);
  }

  take(token: string): boolean {
    if (!this.peek(token)) return false;
    this.index += token.length;
    return true;
  }

  word(): string | undefined {
    this.skipSpace();
    const match = /^[A-Za-z_$][A-Za-z0-9_$-]*/.exec(this.text.slice(this.index));
    if (match === null) return undefined;
    this.index += match[0].length;
    return match[0];
  }

  quoted(): string | undefined {
    this.skipSpace();
    const quote = this.text[this.index];
    if (quote !== '"' && quote !== "'") return undefined;
    const end = this.text.indexOf(quote, this.index + 1);
    if (end === -1) return undefined;
    const value = this.text.slice(this.index + 1, end);
    this.index = end + 1;
    return value;
  }

  type(depth: number): JsonSchema | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const options: JsonSchema[] = [];
    do {
      const option = this.arrayType(depth);
      if (option === undefined) return undefined;
      options.push(option);
    } while (this.take('|'));
    if (options.length === 1) return options[0];
    if (options.every((option) => 'const' in option)) return { enum: options.map((option) => option.const) };
    return { anyOf: options };
  }

  arrayType(depth: number): JsonSchema | undefined {
    let schema = this.primary(depth);
    if (schema === undefined) return undefined;
    while (this.take('[]')) schema = { type: 'array', items: schema };
    return schema;
  }

  primary(depth: number): JsonSchema | undefined {
    if (this.take('{')) return this.object(depth + 1);
    if (this.take('(')) {
      const inner = this.type(depth + 1);
      return inner !== undefined && this.take(')') ? inner : undefined;
    }
    const literal = this.quoted();
    if (literal !== undefined) return { const: literal };
    const start = this.index;
    const word = this.word();
    if (word === 'Array' && this.take('<')) {
      const items = this.type(depth + 1);
      return items !== undefined && this.take('>') ? { type: 'array', items } : undefined;
    }
    if (word !== undefined && Object.hasOwn(PRIMITIVES, word)) return { ...PRIMITIVES[word] };
    this.index = start;
    return undefined;
  }

  object(depth: number): JsonSchema | undefined {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    while (!this.take('}')) {
      const key = this.quoted() ?? this.word();
      if (key === undefined) return undefined;
      const optional = this.take('?');
      if (!this.take(':')) return undefined;
      const value = this.type(depth);
      if (value === undefined) return undefined;
      properties[key] = value;
      if (!optional) required.push(key);
      if (!this.take(',') && !this.take(';') && !this.peek('}')) return undefined;
    }
    return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
  }
}

/** The schema a query's leading shape describes and the request after it, or undefined when there is no shape. */
export function readQueryShape(prompt: string): { schema: JsonSchema; request: string } | undefined {
  const reader = new ShapeReader(prompt);
  const schema = reader.type(0);
  if (schema === undefined) return undefined;
  reader.skipSpace();
  const rest = prompt.slice(reader.index);
  if (rest === '') return { schema, request: '' };
  const separator = /^[,;:]\s*/.exec(rest);
  if (separator === null) return undefined;
  return { schema, request: rest.slice(separator[0].length).trim() };
}
