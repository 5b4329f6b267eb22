/**
 * Regular expressions written by someone else (a flow file's schema, an SDK caller's schema) and run on text a
 * model wrote: a backtracking engine takes exponential time on `^(a+)+$` against `aaaa…b`, and JavaScript's does,
 * synchronously, so not even Ctrl+C gets a turn. These run on RE2 (re2js: pure JavaScript, time linear in the
 * text). What RE2 cannot run in linear time (backreferences, lookahead) is refused, with why, never run natively.
 */
import { RE2JS } from 're2js';

/** Why a pattern cannot run in linear time, or undefined when it can. */
export function linearPatternProblem(source: string): string | undefined {
  try {
    compileLinear(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export class LinearPatternError extends Error {
  override name = 'LinearPatternError';
}

/** RE2's reading of a JavaScript pattern (`\u00e9`, `(?<name>…)` translated), lookbehind without captures included. */
export function compileLinear(source: string): RE2JS {
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.LOOKBEHINDS);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    const hint = /\(\?[=!]|\(\?<[=!]|\\[1-9]|\\k</.test(source)
      ? ' (lookahead and backreferences can take exponential time on an answer, so they are not run; rewrite the pattern without them)'
      : '';
    throw new LinearPatternError(`cannot run in linear time: ${why}${hint}`);
  }
}

const NativeRegExp = RegExp;

/** A RegExp to JavaScript code that asks it to `test` or `exec`, matched by RE2 underneath. */
class LinearRegExp extends NativeRegExp {
  constructor(
    private readonly written: string,
    private readonly compiled: RE2JS,
  ) {
    // The native engine never sees the pattern: it gets one that matches nothing it is asked about.
    super('(?:)');
  }

  override get source(): string {
    return this.written;
  }

  override test(text: string): boolean {
    return this.compiled.test(String(text));
  }

  override exec(text: string): RegExpExecArray | null {
    const input = String(text);
    const matcher = this.compiled.matcher(input);
    if (!matcher.find()) return null;
    const groups = Array.from({ length: matcher.groupCount() + 1 }, (_, index) => matcher.group(index) ?? undefined);
    return Object.assign(groups, { index: matcher.start(), input }) as unknown as RegExpExecArray;
  }
}

/**
 * Runs `build` (synchronously) with every `new RegExp(source)` of one of `sources` made a linear-time one: a
 * library that compiles a schema's patterns itself (zod's z.fromJSONSchema) gets RE2 for exactly those, and its
 * own regular expressions stay native. Throws a LinearPatternError, before `build` runs, for a pattern RE2 refuses.
 */
export function withLinearPatterns<Value>(sources: Iterable<string>, build: () => Value): Value {
  const compiled = new Map<string, RE2JS>();
  for (const source of sources) {
    try {
      compiled.set(source, compileLinear(source));
    } catch (error) {
      throw new LinearPatternError(`pattern ${JSON.stringify(source.length > 60 ? `${source.slice(0, 59)}…` : source)} ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (compiled.size === 0) return build();
  const linear: RegExpConstructor = new Proxy(NativeRegExp, {
    construct(target, args: unknown[], newTarget): object {
      const [source, flags] = args;
      const pattern = typeof source === 'string' && (flags === undefined || flags === '') ? compiled.get(source) : undefined;
      if (pattern !== undefined && typeof source === 'string') return new LinearRegExp(source, pattern);
      return Reflect.construct(target, args, newTarget === linear ? target : newTarget) as object;
    },
  });
  globalThis.RegExp = linear;
  try {
    return build();
  } finally {
    globalThis.RegExp = NativeRegExp;
  }
}

/** Keywords whose values are data, not schemas: a `pattern` inside them is no pattern. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples']);

/** Every `pattern` and `patternProperties` key of a JSON Schema, at any depth. */
export function schemaPatterns(schema: unknown): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 200 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof value === 'string') found.add(value);
      if (key === 'patternProperties' && value !== null && typeof value === 'object' && !Array.isArray(value)) for (const name of Object.keys(value)) found.add(name);
      visit(value, depth + 1);
    }
  };
  visit(schema, 0);
  return found;
}
