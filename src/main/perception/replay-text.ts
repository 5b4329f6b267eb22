/**
 * What the text in a changed region says about the change (docs/flows.md, "Replay"): a replay compares the page's
 * visible text recorded at the click with the text there now, in each region of the screen that changed. Size alone
 * cannot tell "Qty: 1" from "Qty: 9999" or a heading "Shop" from "Bank": both are one short line, like a clock.
 *
 * - `same`: the same words and numbers are there, each within a few pixels of where they were (a layout nudged by
 *   3 px, a caret, a hover's shade): the change is explained.
 * - `clock`: only times of day differ ("10:00:00" and "10:00:03"): a clock, explained.
 * - `changed`: other words or numbers: a change of meaning, wherever it is on the screen.
 * - `none`: no text there, before or now: the pixel rules decide (replay-divergence.ts).
 */
import type { Region } from './frame.js';

export interface TextRun {
  text: string;
  /** In screen units (CSS pixels); `scale` frame pixels each. */
  box: { x: number; y: number; width: number; height: number };
}

export type TextVerdict = 'none' | 'same' | 'clock' | 'changed';

/** How far a run may have moved (screen units) and still be the same text in the same place. */
const MOVED_AT_MOST = 4;
/** A time of day, optionally with seconds and am/pm: what a clock shows. */
const TIME_OF_DAY = /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?\b/gi;

/** The verdict for one changed region (frame pixels) from the runs recorded and the runs now. */
export function textVerdict(region: Region, recorded: readonly TextRun[], present: readonly TextRun[], scale: number): TextVerdict {
  const area = {
    x: region.x / scale - MOVED_AT_MOST,
    y: region.y / scale - MOVED_AT_MOST,
    width: region.width / scale + 2 * MOVED_AT_MOST,
    height: region.height / scale + 2 * MOVED_AT_MOST,
  };
  const before = recorded.filter((run) => meets(run.box, area));
  const now = present.filter((run) => meets(run.box, area));
  if (before.length === 0 && now.length === 0) return 'none';
  if (matched(before, now) && matched(now, before)) return 'same';
  // A run that is only a time of day is a clock, on one side or both (a clock the recorded page did not show too).
  const timeless = (runs: readonly TextRun[]) => runs.map((run) => ({ ...run, text: run.text.replace(TIME_OF_DAY, '{time}') })).filter((run) => run.text !== '{time}');
  const clocked = timeless(before);
  const clockedNow = timeless(now);
  return matched(clocked, clockedNow) && matched(clockedNow, clocked) ? 'clock' : 'changed';
}

/** Every run of `these` has a run of `those` with the same text, within the moved distance. */
function matched(these: readonly TextRun[], those: readonly TextRun[]): boolean {
  return these.every((run) =>
    those.some(
      (other) =>
        other.text === run.text &&
        Math.abs(other.box.x - run.box.x) <= MOVED_AT_MOST &&
        Math.abs(other.box.y - run.box.y) <= MOVED_AT_MOST &&
        Math.abs(other.box.width - run.box.width) <= MOVED_AT_MOST &&
        Math.abs(other.box.height - run.box.height) <= MOVED_AT_MOST,
    ),
  );
}

function meets(box: TextRun['box'], area: TextRun['box']): boolean {
  return box.x < area.x + area.width && area.x < box.x + box.width && box.y < area.y + area.height && area.y < box.y + box.height;
}
