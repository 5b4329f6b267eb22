/** Storage writes times as ISO 8601 UTC strings; a clock is injectable so tests can age rows. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function isoTime(clock: Clock): string {
  return clock().toISOString();
}
