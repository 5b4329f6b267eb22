/**
 * Shared pieces of row mapping: SQLite hands back snake_case columns, 0/1 for booleans and text for JSON;
 * repositories turn them into camelCase records through zod, so a damaged row fails loudly at the boundary.
 */
import { z } from 'zod';

export const booleanColumn = z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1);

export const jsonColumn = z.string().transform((text, context): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    context.addIssue({ code: 'custom', message: 'column does not hold valid JSON' });
    return z.NEVER;
  }
});

export const nullableJsonColumn = jsonColumn.nullable();

export const jsonArrayColumn = jsonColumn.pipe(z.array(z.unknown()));

export function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error('Value cannot be stored as JSON.');
  return text;
}

export function toNullableJson(value: unknown): string | null {
  return value === undefined || value === null ? null : toJson(value);
}

/** Parses a row with its schema, naming the table in the error when it does not match. */
export function parseRow<Output>(schema: z.ZodType<Output>, row: unknown, table: string): Output {
  const result = schema.safeParse(row);
  if (!result.success) {
    throw new Error(`A row of ${table} does not match the expected shape: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}

export function parseRows<Output>(schema: z.ZodType<Output>, rows: unknown[], table: string): Output[] {
  return rows.map((row) => parseRow(schema, row, table));
}

export function booleanToColumn(value: boolean | undefined): 0 | 1 {
  return value === true ? 1 : 0;
}
