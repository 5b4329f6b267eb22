/**
 * Reading YAML nodes the way every part of a flow file is read: each value checked for its type with a
 * message that says what was expected and what was found, at the node's line and column. A `read…` method
 * returns undefined after recording a problem, so a caller goes on and the file's other problems are found too.
 */
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { closestName } from '../../shared/suggestions.js';
import type { SourceAt } from './flow-model.js';
import type { FlowSource } from './flow-source.js';
import { excerpt } from './templates.js';

export interface Entry {
  key: string;
  keyNode: Node;
  /** Undefined for a key written without a value (`then:`). */
  value: Node | undefined;
  pair: Pair;
}

/** JSON nesting beyond this is not a value anyone meant; the YAML nesting check keeps files well below it. */
const MAX_JSON_DEPTH = 64;

export class FlowNodes {
  constructor(readonly source: FlowSource) {}

  at(node: Node | undefined | null): SourceAt {
    return this.source.at(node);
  }

  problem(node: Node | undefined | null, message: string): void {
    this.source.problem(node, message);
  }

  /** The node an alias stands for (anchors are allowed; the reader already refused runaway expansion). */
  resolve(node: unknown): Node | undefined {
    let current = node;
    for (let hops = 0; isAlias(current) && hops < 100; hops++) {
      const document = this.source.document;
      current = document === undefined ? undefined : current.resolve(document);
    }
    if (current === null || current === undefined || isAlias(current)) return undefined;
    const resolved = current as Node;
    // `key:` with nothing after it is an empty scalar: treat it as absent, so the message points at the key.
    if (isScalar(resolved) && resolved.value === null && resolved.range != null && resolved.range[0] === resolved.range[1]) return undefined;
    return resolved;
  }

  /** What a value is, for "got …" in a message: short, and safe to print. */
  describe(node: Node | undefined): string {
    if (node === undefined) return 'nothing';
    if (isMap(node)) return 'a map';
    if (isSeq(node)) return 'a list';
    if (isScalar(node)) {
      const value = node.value;
      if (value === null) return 'null';
      if (typeof value === 'string') return `the text ${JSON.stringify(excerpt(value))}`;
      if (typeof value === 'number') return `the number ${value}`;
      if (typeof value === 'boolean') return String(value);
      return 'a value that is not text';
    }
    return 'something else';
  }

  /** A map's entries with string keys; a non-string key or a merge key is a problem. */
  entries(map: YAMLMap): Entry[] {
    const entries: Entry[] = [];
    for (const pair of map.items) {
      const keyNode = this.resolve(pair.key);
      if (!isScalar(keyNode) || typeof keyNode.value !== 'string') {
        this.problem((pair.key as Node | null) ?? map, `expected a name as the key, got ${this.describe(keyNode)}`);
        continue;
      }
      entries.push({ key: keyNode.value, keyNode, value: this.resolve(pair.value), pair });
    }
    return entries;
  }

  /** Reports every key not in `allowed`, with the closest allowed one when there is a near miss. */
  unknownKeys(entries: Entry[], allowed: readonly string[], where: string): void {
    for (const entry of entries) {
      if (allowed.includes(entry.key)) continue;
      const suggestion = closestName(entry.key, allowed);
      const hint = suggestion === undefined ? '' : `did you mean ${suggestion}? `;
      this.problem(entry.keyNode, `unknown key ${excerpt(entry.key)} ${where}; ${hint}expected ${listed(allowed)}`);
    }
  }

  readMap(node: Node | undefined, what: string, at: Node): YAMLMap | undefined {
    if (isMap(node)) return node;
    this.problem(node ?? at, `${what}: expected a map, got ${this.describe(node)}`);
    return undefined;
  }

  readList(node: Node | undefined, what: string, at: Node): YAMLSeq | undefined {
    if (isSeq(node)) return node;
    this.problem(node ?? at, `${what}: expected a list, got ${this.describe(node)}`);
    return undefined;
  }

  /** A string scalar (numbers and booleans are refused: `do: 42` is a mistake, not a step). */
  readString(node: Node | undefined, what: string, at: Node, options: { allowEmpty?: boolean } = {}): Scalar<string> | undefined {
    if (isScalar(node) && typeof node.value === 'string') {
      if (options.allowEmpty !== true && node.value.trim() === '') {
        this.problem(node, `${what}: expected text, got an empty string`);
        return undefined;
      }
      return node as Scalar<string>;
    }
    this.problem(node ?? at, `${what}: expected text, got ${this.describe(node)}`);
    return undefined;
  }

  readBoolean(node: Node | undefined, what: string, at: Node): boolean | undefined {
    if (isScalar(node) && typeof node.value === 'boolean') return node.value;
    this.problem(node ?? at, `${what}: expected true or false, got ${this.describe(node)}`);
    return undefined;
  }

  /**
   * A JSON value (vars, with, schema). Each string passes through `onString`, which checks its templates
   * and may rewrite it; a value JSON cannot hold (.inf, a binary tag) is a problem.
   */
  readJson(node: Node | undefined, what: string, at: Node, onString: (scalar: Scalar<string>) => string = (scalar) => scalar.value): { value: unknown } | undefined {
    let ok = true;
    const convert = (current: Node | undefined, depth: number): unknown => {
      if (depth > MAX_JSON_DEPTH) {
        this.problem(current ?? at, `${what}: nested more than ${MAX_JSON_DEPTH} levels deep`);
        ok = false;
        return null;
      }
      if (current === undefined) return null;
      if (isMap(current)) {
        const object: Record<string, unknown> = {};
        for (const entry of this.entries(current)) object[entry.key] = convert(entry.value, depth + 1);
        return object;
      }
      if (isSeq(current)) return current.items.map((item) => convert(this.resolve(item), depth + 1));
      if (isScalar(current)) {
        const value = current.value;
        if (typeof value === 'string') return onString(current as Scalar<string>);
        if (value === null || typeof value === 'boolean') return value;
        if (typeof value === 'number' && Number.isFinite(value)) return value;
        if (typeof value === 'bigint') return Number(value);
      }
      this.problem(current, `${what}: ${this.describe(current)} is not a JSON value (text, number, true/false, null, list or map)`);
      ok = false;
      return null;
    };
    const before = this.source.problems.length;
    const value = convert(node, 0);
    return ok && this.source.problems.length === before ? { value } : undefined;
  }

  /** The node at a path under a map or list, for pointing into a JSON value; the nearest found node otherwise. */
  nodeAt(root: Node, path: (string | number)[], atKey: boolean): Node {
    let current: Node = root;
    for (const [index, segment] of path.entries()) {
      const last = index === path.length - 1;
      if (isMap(current)) {
        const entry = this.entries(current).find((candidate) => candidate.key === String(segment));
        if (entry === undefined) return current;
        if (last && atKey) return entry.keyNode;
        if (entry.value === undefined) return entry.keyNode;
        current = entry.value;
      } else if (isSeq(current) && typeof segment === 'number') {
        const item = this.resolve(current.items[segment]);
        if (item === undefined) return current;
        current = item;
      } else {
        return current;
      }
    }
    return current;
  }

  /**
   * Where a character of a scalar's value stands in the file, when the value is written as it reads (plain or
   * quoted without escapes or folding); the scalar's start otherwise.
   */
  offsetIn(scalar: Scalar, index: number): number {
    const [start, end] = scalar.range ?? [0, 0];
    const value = String(scalar.value);
    const written = this.source.text.slice(start, end);
    if (written === value) return start + index;
    if ((scalar.type === 'QUOTE_DOUBLE' || scalar.type === 'QUOTE_SINGLE') && written.slice(1, -1) === value) return start + 1 + index;
    return start;
  }
}

/** `a, b or c` (the choices), or `a, b and c` (what was found). */
export function listed(names: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1) ?? ''}`;
}
