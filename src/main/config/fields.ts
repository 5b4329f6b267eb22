/**
 * The leaves of ConfigSchema, read from the schema itself: their dotted paths, value kinds and
 * environment variable names. Environment and flag values are strings; knowing each leaf's kind lets
 * them be converted exactly as the schema expects instead of guessed from how the text looks.
 */
import type { z } from 'zod';
import { ConfigSchema, SECRET_FIELD_PATHS, type ModelProvider } from '../../shared/config.js';

/** `list`: a list of names (worker.allowEnv), written in a variable or a flag as text with commas between them. */
export type ConfigFieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'list';

export interface ConfigField {
  /** Dotted path, e.g. `perception.dedup.threshold`. */
  path: string;
  segments: readonly string[];
  kind: ConfigFieldKind;
  /** The allowed values of an enum field. */
  options: readonly string[];
  secret: boolean;
  /** The generic variable, e.g. `SIGHTLINE_PERCEPTION_DEDUP_THRESHOLD`. */
  environmentVariable: string;
}

/** Well-known variables other tools already use, accepted as a lower-priority alternative. */
export const ENVIRONMENT_ALIASES: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: 'model.apiKey',
  ANTHROPIC_API_KEY: 'model.anthropicApiKey',
  // Both of Google's names; later entries win, so GOOGLE_API_KEY does when both are set (as in @google/genai).
  GEMINI_API_KEY: 'model.googleApiKey',
  GOOGLE_API_KEY: 'model.googleApiKey',
  SIGHTLINE_MODEL: 'model.name',
  TAVILY_API_KEY: 'search.tavilyApiKey',
};

export interface ProviderEnvironmentAlias {
  path: string;
  /** The provider the variable is meant for: it fills its field only when this provider is in effect. */
  provider: ModelProvider;
}

/**
 * Well-known variables that belong to one provider's tools: OPENAI_BASE_URL is where OpenAI's clients send
 * requests, ANTHROPIC_BASE_URL where Anthropic's do. Each counts only when its provider is in effect, so an
 * OPENAI_BASE_URL exported for other tools never sends a Claude model's requests to an OpenAI endpoint. The
 * field itself (config.json, SIGHTLINE_MODEL_BASE_URL, --base-url) applies whatever the provider.
 */
export const PROVIDER_ENVIRONMENT_ALIASES: Readonly<Record<string, ProviderEnvironmentAlias>> = {
  OPENAI_BASE_URL: { path: 'model.baseUrl', provider: 'openai' },
  ANTHROPIC_BASE_URL: { path: 'model.baseUrl', provider: 'anthropic' },
  // The variable @google/genai reads for the Gemini API's address.
  GOOGLE_GEMINI_BASE_URL: { path: 'model.baseUrl', provider: 'google' },
};

interface SchemaDefinition {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string | number>;
}

function definitionOf(schema: z.ZodType): SchemaDefinition {
  return (schema as unknown as { def: SchemaDefinition }).def;
}

/** Removes `.default()`, `.optional()` and `.nullable()` wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const definition = definitionOf(current);
    if (definition.innerType === undefined) return current;
    current = definition.innerType;
  }
}

/** The object schema's children, or undefined for a leaf. */
export function childrenOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const definition = definitionOf(unwrap(schema));
  return definition.type === 'object' ? definition.shape : undefined;
}

function describeLeaf(path: readonly string[], schema: z.ZodType): ConfigField {
  const definition = definitionOf(unwrap(schema));
  const dotted = path.join('.');
  const kind = leafKind(definition.type, dotted);
  return {
    path: dotted,
    segments: path,
    kind,
    options: kind === 'enum' ? Object.values(definition.entries ?? {}).map(String) : [],
    secret: (SECRET_FIELD_PATHS as readonly string[]).includes(dotted),
    environmentVariable: ['SIGHTLINE', ...path.map(screamingSnakeCase)].join('_'),
  };
}

function leafKind(type: string, path: string): ConfigFieldKind {
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'enum') return type;
  // A number or a text form (agent.maxCost: 0.5 or "200000 tokens"): from a variable or a flag it is text,
  // which the schema itself reads.
  if (type === 'union') return 'string';
  if (type === 'array') return 'list';
  throw new Error(`config field ${path} has a schema type (${type}) the loader cannot convert from text`);
}

/**
 * A field holding a record (name → object, like `mcp.servers`) is set in config.json only: it is no text
 * leaf, so it has no environment variable. The file walker keeps it whole as one entry.
 */
export function isRecordField(schema: z.ZodType): boolean {
  return definitionOf(unwrap(schema)).type === 'record';
}

/**
 * Objects that are one value, given whole in config.json like a record: `model.pricing` is a price table
 * that means something only complete, so its parts get no variables of their own and are never merged
 * field by field from different sources. The browser's URL pattern lists are lists: text cannot hold them.
 */
export const CONFIG_WHOLE_OBJECT_PATHS: readonly string[] = ['model.pricing', 'agent.allowedUrls', 'agent.blockedUrls'];

function isSetWhole(path: readonly string[], schema: z.ZodType): boolean {
  return isRecordField(schema) || CONFIG_WHOLE_OBJECT_PATHS.includes(path.join('.'));
}

function collectFields(path: readonly string[], schema: z.ZodType): ConfigField[] {
  if (isSetWhole(path, schema)) return [];
  const children = childrenOf(schema);
  if (children === undefined) return [describeLeaf(path, schema)];
  return Object.entries(children).flatMap(([key, child]) => collectFields([...path, key], child));
}

export const CONFIG_FIELDS: readonly ConfigField[] = collectFields([], ConfigSchema);

function collectRecordPaths(path: readonly string[], schema: z.ZodType): string[] {
  if (isRecordField(schema)) return [path.join('.')];
  return Object.entries(childrenOf(schema) ?? {}).flatMap(([key, child]) => collectRecordPaths([...path, key], child));
}

/** Dotted paths of the record fields (`mcp.servers`): set in config.json, or as objects by flags. */
export const CONFIG_RECORD_PATHS: readonly string[] = collectRecordPaths([], ConfigSchema);

/** Every field given whole rather than leaf by leaf: the records and the whole objects (`model.pricing`). */
export const CONFIG_SET_WHOLE_PATHS: readonly string[] = [...CONFIG_RECORD_PATHS, ...CONFIG_WHOLE_OBJECT_PATHS];

const FIELDS_BY_PATH = new Map(CONFIG_FIELDS.map((field) => [field.path, field]));

export function configField(path: string): ConfigField | undefined {
  return FIELDS_BY_PATH.get(path);
}

/** The names allowed under a section path ('' for the top level), for unknown-key suggestions. */
export function keysUnder(segments: readonly string[]): string[] {
  let schema: z.ZodType = ConfigSchema;
  for (const segment of segments) {
    const child = childrenOf(schema)?.[segment];
    if (child === undefined) return [];
    schema = child;
  }
  return Object.keys(childrenOf(schema) ?? {});
}

/** Whether a dotted path names a section (an object), not a leaf nor an object set whole. */
export function isSection(segments: readonly string[]): boolean {
  if (CONFIG_WHOLE_OBJECT_PATHS.includes(segments.join('.'))) return false;
  let schema: z.ZodType = ConfigSchema;
  for (const segment of segments) {
    const child = childrenOf(schema)?.[segment];
    if (child === undefined) return false;
    schema = child;
  }
  return childrenOf(schema) !== undefined;
}

function screamingSnakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}
