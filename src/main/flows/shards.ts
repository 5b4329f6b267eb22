/**
 * `--shard I/N`: Playwright's convention, so a CI matrix of N machines splits a suite of flow files the same way
 * on every machine. The flows are put in one order that does not depend on the machine (their paths relative to
 * the working folder, compared as strings), then cut into N runs of consecutive flows whose sizes differ by at
 * most one, the larger ones first; machine I runs the I-th.
 */
export interface Shard {
  current: number;
  total: number;
}

/** "2/4" → { current: 2, total: 4 }; undefined when it is not I/N with 1 ≤ I ≤ N. */
export function parseShard(text: string): Shard | undefined {
  const match = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text);
  if (match === null) return undefined;
  const current = Number(match[1]);
  const total = Number(match[2]);
  if (total < 1 || current < 1 || current > total) return undefined;
  return { current, total };
}

/** The items of this shard, from items already in their shared order. */
export function shardOf<T>(items: readonly T[], shard: Shard): T[] {
  const size = Math.floor(items.length / shard.total);
  const larger = items.length - size * shard.total;
  const index = shard.current - 1;
  const from = size * index + Math.min(larger, index);
  const to = from + size + (index < larger ? 1 : 0);
  return items.slice(from, to);
}
