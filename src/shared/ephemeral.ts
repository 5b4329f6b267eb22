/**
 * Context attached to one request only: a note, a quote, a document. It reaches the model appended to
 * the latest user message of that one request, and is never stored in history (only its type and length
 * are recorded, in the injections table). The CLI reads it from `--context-file FILE --context-type TYPE`;
 * the app's run form has a toggle for it.
 */
import { z } from 'zod';

export const EPHEMERAL_CONTEXT_TYPES = ['note', 'quote', 'document', 'custom'] as const;
export type EphemeralContextType = (typeof EPHEMERAL_CONTEXT_TYPES)[number];

/** Largest ephemeral context accepted, in characters; the token budget may still fold history to fit it. */
export const MAX_EPHEMERAL_CONTEXT_LENGTH = 200_000;

export const EphemeralContextSchema = z
  .object({
    type: z.enum(EPHEMERAL_CONTEXT_TYPES),
    content: z.string().min(1).max(MAX_EPHEMERAL_CONTEXT_LENGTH),
  })
  .strict();

export type EphemeralContext = z.infer<typeof EphemeralContextSchema>;
