/**
 * The flags of `sightline sessions ls|show`: a leaf, read when the CLI registers its commands, so nothing here may
 * reach the database or the team store.
 */
import { InvalidArgumentError } from 'commander';
import { z } from 'zod';

export const DEFAULT_LIST_LIMIT = 20;

const TeamOptionsSchema = { store: z.string().optional(), blobs: z.string().optional() };
export const ListOptionsSchema = z.object({ json: z.boolean().optional(), limit: z.number().int().positive(), ...TeamOptionsSchema });
export const ShowOptionsSchema = z.object({ json: z.boolean().optional(), ...TeamOptionsSchema });
export type ListOptions = z.infer<typeof ListOptionsSchema>;
export type ShowOptions = z.infer<typeof ShowOptionsSchema>;

export function parsePositiveInteger(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError('expected a whole number of 1 or more.');
  }
  return value;
}
