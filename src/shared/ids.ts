/**
 * Identifiers for the things Sightline stores. Each kind has a short prefix so that an id read in a log,
 * a placeholder or a model's tool call says what it names. Image ids are what the model sees and types
 * back (`get_history_image("img_…")`), so they stay short: 12 hex digits, 48 random bits.
 */

export const ID_PREFIXES = {
  session: 'ses_',
  turn: 'turn_',
  message: 'msg_',
  image: 'img_',
  step: 'step_',
  searchReport: 'srch_',
  injection: 'inj_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ID_BODY_LENGTH = 12;
const ID_BODY_PATTERN = /^[0-9a-f]{12}$/;

/** A new random id of the given kind, e.g. `img_3f9c0a12b7e4`. Works in Node and in the renderer. */
export function newId(kind: IdKind): string {
  const bytes = new Uint8Array(ID_BODY_LENGTH / 2);
  globalThis.crypto.getRandomValues(bytes);
  let body = '';
  for (const byte of bytes) body += byte.toString(16).padStart(2, '0');
  return ID_PREFIXES[kind] + body;
}

/**
 * Reads an id that a person or a model typed: with or without its prefix, any case, surrounding
 * whitespace or angle brackets tolerated. Returns the canonical id, or undefined when it is not one.
 */
export function parseId(kind: IdKind, text: string): string | undefined {
  const prefix = ID_PREFIXES[kind];
  let body = text.trim().replace(/^<|>$/g, '').toLowerCase();
  if (body.startsWith(prefix)) body = body.slice(prefix.length);
  return ID_BODY_PATTERN.test(body) ? prefix + body : undefined;
}
