/**
 * The three sources of configuration, each reduced to a list of leaf values with their origin:
 * `config.json` (walked along the schema), environment variables and CLI flags. Unknown names are
 * collected as issues rather than dropped, so a typo never silently means "use the default".
 */
import type { ConfigIssue } from './errors.js';
import type { ModelProvider } from '../../shared/config.js';
import {
  CONFIG_FIELDS,
  CONFIG_SET_WHOLE_PATHS,
  ENVIRONMENT_ALIASES,
  PROVIDER_ENVIRONMENT_ALIASES,
  configField,
  isSection,
  keysUnder,
} from './fields.js';
import type { ConfigSource } from './sources.js';
import { closestName } from '../../shared/suggestions.js';
import { valueFromText } from './text-values.js';

export interface ConfigEntry {
  /** Dotted path; a leaf, or a section when the file put a non-object where a section belongs. */
  path: string;
  value: unknown;
  source: ConfigSource;
  /** Set by a provider's own variable (OPENAI_BASE_URL): the value counts only when that provider is in effect. */
  provider?: ModelProvider;
}

export interface SourceEntries {
  entries: ConfigEntry[];
  issues: ConfigIssue[];
}

/** Values for dotted paths, as commands pass them: `{'model.name': 'x', 'agent.maxSteps': 5}`. */
export type ConfigFlags = Readonly<Record<string, unknown>>;

export function entriesFromFile(json: unknown, file: string): SourceEntries {
  const result: SourceEntries = { entries: [], issues: [] };
  if (json === undefined) return result;
  const source: ConfigSource = { kind: 'file', file };
  if (!isPlainObject(json)) {
    result.issues.push({ path: '(top level)', problem: `expected an object, got ${describeValue(json, false)}`, source });
    return result;
  }
  walkFileObject(json, [], source, result);
  return result;
}

function walkFileObject(
  object: Record<string, unknown>,
  segments: readonly string[],
  source: ConfigSource,
  result: SourceEntries,
): void {
  const known = keysUnder(segments);
  for (const [key, value] of Object.entries(object)) {
    const childSegments = [...segments, key];
    const path = childSegments.join('.');
    if (!known.includes(key)) {
      result.issues.push({ path, problem: unknownFieldProblem(key, known, segments), source });
    } else if (isSection(childSegments) && isPlainObject(value)) {
      walkFileObject(value, childSegments, source, result);
    } else {
      result.entries.push({ path, value, source });
    }
  }
}

function unknownFieldProblem(key: string, known: readonly string[], segments: readonly string[]): string {
  const suggestion = closestName(key, known);
  if (suggestion === undefined) {
    const where = segments.length === 0 ? 'the top level' : segments.join('.');
    return `unknown field (${where} has: ${known.join(', ')})`;
  }
  return `unknown field; did you mean ${[...segments, suggestion].join('.')}?`;
}

const FIELDS_BY_VARIABLE = new Map(CONFIG_FIELDS.map((field) => [field.environmentVariable, field]));
const SECTION_PREFIXES = keysUnder([]).map((section) => `SIGHTLINE_${section.toUpperCase()}_`);

/**
 * Aliases (OPENAI_API_KEY, OPENAI_BASE_URL …) come first, so the Sightline-specific variable for the same field
 * wins. Empty variables count as unset: `export OPENAI_BASE_URL=` is how shells clear a value.
 */
export function entriesFromEnvironment(env: Readonly<Record<string, string | undefined>>): SourceEntries {
  const result: SourceEntries = { entries: [], issues: [] };
  for (const [variable, { path, provider }] of Object.entries(PROVIDER_ENVIRONMENT_ALIASES)) {
    const text = env[variable];
    const field = configField(path);
    if (field === undefined || text === undefined || text === '') continue;
    result.entries.push({ path, value: valueFromText(field, text), source: { kind: 'env', variable }, provider });
  }
  for (const [variable, path] of Object.entries(ENVIRONMENT_ALIASES)) {
    const text = env[variable];
    const field = configField(path);
    if (field === undefined || text === undefined || text === '') continue;
    result.entries.push({ path, value: valueFromText(field, text), source: { kind: 'env', variable } });
  }
  for (const [variable, text] of Object.entries(env)) {
    if (text === undefined || text === '') continue;
    const field = FIELDS_BY_VARIABLE.get(variable);
    if (field !== undefined) {
      result.entries.push({ path: field.path, value: valueFromText(field, text), source: { kind: 'env', variable } });
    } else if (SECTION_PREFIXES.some((prefix) => variable.startsWith(prefix))) {
      const suggestion = closestName(variable, [...FIELDS_BY_VARIABLE.keys()]);
      result.issues.push({
        path: variable,
        problem: `unknown setting${suggestion === undefined ? '' : `; did you mean ${suggestion}?`}`,
        source: { kind: 'env', variable },
      });
    }
  }
  return result;
}

export function entriesFromFlags(
  flags: ConfigFlags,
  flagNames: Readonly<Record<string, string>> = {},
): SourceEntries {
  const result: SourceEntries = { entries: [], issues: [] };
  for (const [path, value] of Object.entries(flags)) {
    if (value === undefined) continue; // commander leaves options that were not given undefined
    const source: ConfigSource = { kind: 'flag', flag: flagNames[path] ?? `--${path}` };
    // A record (`mcp.servers`) or a whole object (`model.pricing`) comes as an object, never as text: taken whole, the schema checks it.
    if (CONFIG_SET_WHOLE_PATHS.includes(path) && typeof value !== 'string') {
      result.entries.push({ path, value, source });
      continue;
    }
    const field = configField(path);
    if (field === undefined) {
      const suggestion = closestName(path, CONFIG_FIELDS.map((known) => known.path));
      const hint = suggestion === undefined ? '' : `; did you mean ${suggestion}?`;
      result.issues.push({ path, problem: `unknown field${hint}`, source });
      continue;
    }
    result.entries.push({ path, value: typeof value === 'string' ? valueFromText(field, value) : value, source });
  }
  return result;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a found value is quoted in an error message; secrets are never shown. */
export function describeValue(value: unknown, secret: boolean): string {
  if (secret && value !== undefined) return '(secret)';
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  return String(value);
}

