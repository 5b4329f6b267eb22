/**
 * What `extract` accepts as its schema: a zod 4 schema (typed results) or a JSON Schema. Either way the model is
 * shown a JSON Schema and the value is checked before it is returned: zod's own parse for a zod schema (its
 * transforms and refinements apply), zod's reading of a JSON Schema otherwise.
 */
import { z } from 'zod';
import { checkerOf } from '../agent/index.js';
import { SightlineError } from './automation-errors.js';

export type JsonSchema = Record<string, unknown>;

/** A zod schema, or a JSON Schema object. */
export type ExtractSchema<T = unknown> = z.ZodType<T> | JsonSchema;

export interface PreparedSchema {
  jsonSchema: JsonSchema;
  check: (value: unknown) => { ok: true; value: unknown } | { ok: false; error: string };
}

export function prepareSchema(schema: ExtractSchema): PreparedSchema {
  if (isZodSchema(schema)) {
    let jsonSchema: JsonSchema;
    try {
      const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
      jsonSchema = rest;
    } catch (error) {
      throw new SightlineError(`extract: the zod schema cannot be shown to the model as JSON Schema (${message(error)}); pass a JSON Schema instead.`);
    }
    return {
      jsonSchema,
      check: (value) => {
        const parsed = schema.safeParse(value);
        return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: z.prettifyError(parsed.error).replace(/\n/g, ' ') };
      },
    };
  }
  if (looksLikeOtherZod(schema)) {
    throw new SightlineError('extract: this schema looks like a zod 3 schema; pass a zod 4 schema (import { z } from "zod" v4) or a JSON Schema.');
  }
  try {
    return { jsonSchema: schema, check: checkerOf(schema) };
  } catch (error) {
    throw new SightlineError(`extract: the JSON Schema cannot be read (${message(error)}).`);
  }
}

function isZodSchema(schema: ExtractSchema): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema && typeof (schema as { safeParse?: unknown }).safeParse === 'function';
}

function looksLikeOtherZod(schema: ExtractSchema): boolean {
  return typeof (schema as { safeParse?: unknown }).safeParse === 'function' && '_def' in schema;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
