/**
 * How consecutive requests of a turn relate since the running turn's screens go at the resolution they are
 * worth (issue 15): the next request shows the previous one's present screen as a reduced view, so only the
 * messages that carry that screen (its id token, its pixels) change; everything before them is the same bytes,
 * and the request goes on from there. Over Chat Completions messages, as the fake server received them.
 */
import { expect } from 'vitest';

type ChatMessage = Record<string, unknown>;

/** The id of the last image a request names: the screen it shows as the present one. */
export function presentScreenId(messages: readonly ChatMessage[]): string {
  const id = [...JSON.stringify(messages).matchAll(/<(img_[0-9a-f]{12})>/g)].at(-1)?.[1];
  if (id === undefined) throw new Error('The request names no image.');
  return id;
}

export function expectExtendsButForPresentScreen(previous: readonly ChatMessage[], current: readonly ChatMessage[]): void {
  expect(current.length).toBeGreaterThan(previous.length);
  const shown = presentScreenId(previous);
  const carriedFrom = previous.findIndex((message) => JSON.stringify(message).includes(`<${shown}>`));
  // The screen is carried by the request's last messages (a tool result and the attachment holding its pixels).
  expect(carriedFrom).toBeGreaterThanOrEqual(previous.length - 2);
  expect(JSON.stringify(current.slice(0, carriedFrom))).toBe(JSON.stringify(previous.slice(0, carriedFrom)));
  expect(JSON.stringify(current[carriedFrom])).toContain(`<${shown}> (reduced view; get_history_image ${shown} shows it in full)`);
  expect(JSON.stringify(current.slice(carriedFrom, previous.length))).toContain('"detail":"low"');
}
