/**
 * A check that an `extract:` step's `schema:` is a JSON Schema, before anything runs. zod's z.fromJSONSchema
 * converts what it can and lets most mistakes through (`required: amount`, `properties: 3`, `minLength: -1`
 * all pass), so this walks the schema against the keywords' own rules (a small meta-schema) and names the
 * faulty keyword by its path; z.fromJSONSchema then runs on what passed, for what only it can tell (a `$ref`
 * that points nowhere). Unknown keywords are refused, not ignored: in a hand-written flow `require:` or
 * `propertys:` is a typo that would silently drop a constraint.
 */
import { z } from 'zod';
import { linearPatternProblem } from '../../shared/linear-patterns.js';
import { closestName } from '../../shared/suggestions.js';

export type SchemaPath = (string | number)[];

export interface SchemaProblem {
  /** Where in the schema: `['properties', 'amount', 'type']`. */
  path: SchemaPath;
  /** True when the problem is the key itself (an unknown keyword), not its value. */
  atKey: boolean;
  message: string;
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

type Rule = (value: unknown, path: SchemaPath, problems: SchemaProblem[], depth: number) => void;

const schemaRule: Rule = (value, path, problems, depth) => checkSchema(value, path, problems, depth + 1);
const schemaMap: Rule = (value, path, problems, depth) => {
  if (!isObject(value)) return problems.push(valueProblem(path, 'expected a map of names to schemas'));
  for (const [name, schema] of Object.entries(value)) checkSchema(schema, [...path, name], problems, depth + 1);
};
const schemaList: Rule = (value, path, problems, depth) => {
  if (!Array.isArray(value) || value.length === 0) return problems.push(valueProblem(path, 'expected a non-empty list of schemas'));
  value.forEach((schema, index) => checkSchema(schema, [...path, index], problems, depth + 1));
};
const text: Rule = (value, path, problems) => {
  if (typeof value !== 'string') problems.push(valueProblem(path, 'expected a string'));
};
const flag: Rule = (value, path, problems) => {
  if (typeof value !== 'boolean') problems.push(valueProblem(path, 'expected true or false'));
};
const anything: Rule = () => undefined;
const count: Rule = (value, path, problems) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) problems.push(valueProblem(path, 'expected a whole number, 0 or more'));
};
const bound: Rule = (value, path, problems) => {
  // Draft 4 wrote exclusiveMinimum/exclusiveMaximum as booleans beside minimum/maximum; both forms are read.
  if (typeof value !== 'number' && typeof value !== 'boolean') problems.push(valueProblem(path, 'expected a number'));
};
const number: Rule = (value, path, problems) => {
  if (typeof value !== 'number') problems.push(valueProblem(path, 'expected a number'));
};
const positive: Rule = (value, path, problems) => {
  if (typeof value !== 'number' || value <= 0) problems.push(valueProblem(path, 'expected a number above 0'));
};
const names: Rule = (value, path, problems) => {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    return problems.push(valueProblem(path, 'expected a list of property names (strings)'));
  }
  const repeated = value.find((item, index) => value.indexOf(item) !== index);
  if (repeated !== undefined) problems.push(valueProblem(path, `lists ${String(repeated)} twice`));
};
const pattern: Rule = (value, path, problems) => {
  if (typeof value !== 'string') return problems.push(valueProblem(path, 'expected a regular expression (a string)'));
  const error = regexError(value);
  if (error !== undefined) problems.push(valueProblem(path, error));
};
const type: Rule = (value, path, problems) => {
  const expected = `expected one of ${TYPES.join(', ')}, or a list of them`;
  if (typeof value === 'string') {
    if (!TYPES.includes(value)) problems.push(valueProblem(path, `${typeHint(value)}${expected}`));
    return;
  }
  if (!Array.isArray(value) || value.length === 0) return problems.push(valueProblem(path, expected));
  value.forEach((item, index) => {
    if (typeof item !== 'string' || !TYPES.includes(item)) problems.push(valueProblem([...path, index], `${typeof item === 'string' ? typeHint(item) : ''}${expected}`));
  });
};
const enumeration: Rule = (value, path, problems) => {
  if (!Array.isArray(value) || value.length === 0) problems.push(valueProblem(path, 'expected a non-empty list of values'));
};
const items: Rule = (value, path, problems, depth) => {
  // Draft 7 allowed a list here (a tuple); 2020-12 calls that prefixItems.
  if (Array.isArray(value)) schemaList(value, path, problems, depth);
  else checkSchema(value, path, problems, depth + 1);
};
const examples: Rule = (value, path, problems) => {
  if (!Array.isArray(value)) problems.push(valueProblem(path, 'expected a list of example values'));
};
const patternMap: Rule = (value, path, problems, depth) => {
  if (!isObject(value)) return problems.push(valueProblem(path, 'expected a map of regular expressions to schemas'));
  for (const [key, schema] of Object.entries(value)) {
    const error = regexError(key);
    if (error !== undefined) problems.push({ path: [...path, key], atKey: true, message: error });
    checkSchema(schema, [...path, key], problems, depth + 1);
  }
};
const dependentRequired: Rule = (value, path, problems) => {
  if (!isObject(value)) return problems.push(valueProblem(path, 'expected a map of property names to lists of names'));
  for (const [key, list] of Object.entries(value)) names(list, [...path, key], problems, 0);
};

const KEYWORDS: Record<string, Rule> = {
  type,
  properties: schemaMap,
  patternProperties: patternMap,
  additionalProperties: schemaRule,
  unevaluatedProperties: schemaRule,
  propertyNames: schemaRule,
  required: names,
  dependentRequired,
  dependentSchemas: schemaMap,
  minProperties: count,
  maxProperties: count,
  items,
  prefixItems: schemaList,
  additionalItems: schemaRule,
  unevaluatedItems: schemaRule,
  contains: schemaRule,
  minContains: count,
  maxContains: count,
  minItems: count,
  maxItems: count,
  uniqueItems: flag,
  minLength: count,
  maxLength: count,
  pattern,
  format: text,
  contentEncoding: text,
  contentMediaType: text,
  minimum: number,
  maximum: number,
  exclusiveMinimum: bound,
  exclusiveMaximum: bound,
  multipleOf: positive,
  enum: enumeration,
  const: anything,
  allOf: schemaList,
  anyOf: schemaList,
  oneOf: schemaList,
  not: schemaRule,
  if: schemaRule,
  then: schemaRule,
  else: schemaRule,
  $defs: schemaMap,
  definitions: schemaMap,
  $ref: text,
  $id: text,
  $schema: text,
  $anchor: text,
  $comment: text,
  title: text,
  description: text,
  default: anything,
  examples,
  deprecated: flag,
  readOnly: flag,
  writeOnly: flag,
  // OpenAPI's spelling of "or null", common in schemas copied from an API description.
  nullable: flag,
};

/** Nesting deeper than this is not a schema anyone wrote by hand; stop before the stack does. */
const MAX_DEPTH = 64;

/** Every problem of a schema given as the top of an `extract:` step's `schema:`. */
export function jsonSchemaProblems(schema: unknown): SchemaProblem[] {
  if (!isObject(schema)) return [valueProblem([], 'expected a JSON Schema: a map like { type: object, properties: … }')];
  const problems: SchemaProblem[] = [];
  checkSchema(schema, [], problems, 0);
  if (problems.length > 0) return problems;
  try {
    z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    problems.push(valueProblem([], `not a schema zod can use: ${error instanceof Error ? error.message : String(error)}`));
  }
  return problems;
}

function checkSchema(schema: unknown, path: SchemaPath, problems: SchemaProblem[], depth: number): void {
  if (typeof schema === 'boolean') return;
  if (!isObject(schema)) {
    problems.push(valueProblem(path, 'expected a schema (a map, or true or false)'));
    return;
  }
  if (depth > MAX_DEPTH) {
    problems.push(valueProblem(path, `nested more than ${MAX_DEPTH} schemas deep`));
    return;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    const rule = KEYWORDS[keyword];
    if (rule === undefined) {
      if (keyword.startsWith('x-')) continue;
      const suggestion = closestName(keyword, Object.keys(KEYWORDS));
      problems.push({ path: [...path, keyword], atKey: true, message: `unknown JSON Schema keyword${suggestion === undefined ? '' : `; did you mean ${suggestion}?`}` });
      continue;
    }
    rule(value, [...path, keyword], problems, depth);
  }
}

function valueProblem(path: SchemaPath, message: string): SchemaProblem {
  return { path, atKey: false, message };
}

function typeHint(value: string): string {
  const suggestion = closestName(value, TYPES);
  return suggestion === undefined ? `unknown type ${value}; ` : `unknown type ${value} (did you mean ${suggestion}?); `;
}

/** A pattern must be JavaScript's (JSON Schema says ECMA-262) and run on RE2, which the runner matches it with. */
function regexError(source: string): string | undefined {
  try {
    new RegExp(source, 'u');
  } catch (error) {
    return `not a regular expression: ${error instanceof Error ? error.message : String(error)}`;
  }
  return linearPatternProblem(source);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
