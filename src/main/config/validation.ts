/**
 * Validates the merged configuration with ConfigSchema once, and words each zod issue for a person:
 * `expected …, got …`, with the value as it was found (a secret only as "(secret)") and its source.
 */
import type { z } from 'zod';
import { ConfigSchema, type Config } from '../../shared/config.js';
import type { ConfigIssue } from './errors.js';
import { describeValue, type ConfigEntry } from './entries.js';
import { configField } from './fields.js';

export type ValidationResult = { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] };

export function validateConfig(merged: Record<string, unknown>, entries: ReadonlyMap<string, ConfigEntry>): ValidationResult {
  const parsed = ConfigSchema.safeParse(merged);
  if (parsed.success) return { ok: true, config: parsed.data };
  return { ok: false, issues: parsed.error.issues.flatMap(closestUnionBranch).map((issue) => describeIssue(issue, entries)) };
}

/**
 * A value that fits no branch of a union (an MCP server: a command or a URL) is reported by the branch it
 * came closest to, when one did (`args: expected an array`); when the branches tie (both kinds' keys, or
 * neither), by the union's own message.
 */
function closestUnionBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const fewest = Math.min(...issue.errors.map((branch) => branch.length));
  const closest = issue.errors.filter((branch) => branch.length === fewest);
  if (closest.length !== 1) return [issue];
  return closest[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue).flatMap(closestUnionBranch);
}

function describeIssue(issue: z.core.$ZodIssue, entries: ReadonlyMap<string, ConfigEntry>): ConfigIssue {
  const path = issue.path.map(String).join('.');
  const entry = entryAtOrAbove(path, entries);
  const secret = configField(path)?.secret ?? false;
  // A record is one entry (`mcp.servers`); the value reported is the one inside it that is wrong.
  const found = entry === undefined ? undefined : valueInside(entry, issue.path.map(String));
  // A bad key of a record (a server name) is reported as the name typed, not as its object.
  const got = issue.code === 'invalid_key' ? describeValue(issue.path.at(-1), false) : describeValue(found, secret);
  return {
    path,
    problem: `expected ${expectation(issue)}, got ${got}`,
    source: entry?.source ?? { kind: 'default' },
  };
}

/** The entry that set this path, or the section entry that put a non-object above it. */
function entryAtOrAbove(path: string, entries: ReadonlyMap<string, ConfigEntry>): ConfigEntry | undefined {
  const segments = path.split('.');
  for (let length = segments.length; length > 0; length--) {
    const entry = entries.get(segments.slice(0, length).join('.'));
    if (entry !== undefined) return entry;
  }
  return undefined;
}

function valueInside(entry: ConfigEntry, issuePath: readonly string[]): unknown {
  let value = entry.value;
  for (const segment of issuePath.slice(entry.path.split('.').length)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

const TYPE_WORDS: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  string: 'a string',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_WORDS[issue.expected] ?? issue.expected;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'a non-empty string' : `at least ${issue.minimum} characters`;
      return `${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `at most ${issue.maximum} characters`;
      return `${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'invalid_value':
      return `one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'a URL (like https://api.example.com/v1)' : `a ${issue.format}`;
    case 'invalid_key':
      return issue.issues[0]?.message ?? 'a valid name';
    case 'custom':
      // A refinement's message is the expectation, worded as it must read (keep-last:N keeps its capital N).
      return issue.message;
    default:
      return issue.message.toLowerCase();
  }
}
