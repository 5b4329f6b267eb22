/**
 * The points of UI-TARS actions, in every form its models and prompts use:
 *
 *   (x,y)                                 UI-TARS 1.0 / 1.5 answers (README_deploy.md's example)
 *   <|box_start|>(x,y)<|box_end|>         the COMPUTER_USE template's form
 *   [x1, y1, x2, y2] and x1, y1, x2, y2   UI-TARS 1.0 action spaces (UI-TARS-desktop's NutJS operator)
 *   <bbox>x1 y1 x2 y2</bbox>              UI-TARS-desktop's parser tests
 *   <point>x y</point>                    COMPUTER_USE_DOUBAO / the Doubao models
 *
 * A box of two corners means its centre, as UI-TARS's own parser takes it. The numbers are passed through
 * as the model wrote them: which space they are in (0–1000, or pixels of the image sent) is the model
 * profile's, and the one coordinate mapping turns them into screen points.
 */

export type PointRead = { ok: true; x: number; y: number } | { ok: false; error: string };

/** Longer than any real point or box; anything longer is not read. */
const LONGEST_BOX_TEXT = 200;
const MARKERS = /<\|box_start\|>|<\|box_end\|>|<\/?bbox>|<\/?point>/g;
const SEPARATORS = /[\s,()[\]]+/;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/** The point a box argument names (`start_box`, `point`, …), or why it names none. */
export function readPoint(argumentName: string, written: string): PointRead {
  const shown = written.length > 60 ? `${written.slice(0, 60)}…` : written;
  const notAPoint: PointRead = {
    ok: false,
    error: `${argumentName}='${shown}' is not a point: write ${argumentName}='<|box_start|>(x,y)<|box_end|>' (or a box [x1, y1, x2, y2])`,
  };
  if (written.length > LONGEST_BOX_TEXT) return notAPoint;
  const tokens = written.replace(MARKERS, ' ').split(SEPARATORS).filter((token) => token !== '');
  if (!tokens.every((token) => NUMBER.test(token))) return notAPoint;
  const numbers = tokens.map(Number);
  if (!numbers.every(Number.isFinite)) return notAPoint;
  if (numbers.length === 2) return { ok: true, x: numbers[0]!, y: numbers[1]! };
  if (numbers.length === 4) return { ok: true, x: (numbers[0]! + numbers[2]!) / 2, y: (numbers[1]! + numbers[3]!) / 2 };
  return notAPoint;
}
