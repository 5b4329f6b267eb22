/**
 * What the demo's scripted model does, turn by turn, on the sandbox page (resources/sandbox) in a
 * 1280x800 viewport. It cannot see, so it clicks fixed points of the page's fixed layout (SANDBOX_LAYOUT
 * below, the same points the page's CSS documents); it does check that every request shows it a screenshot.
 *
 * The turns are chosen to show what Sightline does with screenshots: a wait that changes nothing (its
 * screenshot is unchanged, sent as a line of text), turns that end and fold their middle screenshots to
 * placeholders in cold storage, and a last turn that looks back at one of those by the id its placeholder
 * shows.
 */
import type { RequestSummary, ScriptedMove } from '../test/helpers/scripted-computer-model.js';

/** Centers of the sandbox's controls in a 1280x800 viewport at scale 1. */
export const SANDBOX_LAYOUT = {
  teamNameField: { x: 640, y: 233 },
  weeklySummaryBox: { x: 379, y: 284 },
  planTeamRadio: { x: 479, y: 354 },
  saveButton: { x: 420, y: 418 },
  newMemberField: { x: 580, y: 528 },
  addButton: { x: 855, y: 528 },
} as const;

export interface DemoTurn {
  task: string;
  moves: ScriptedMove[];
}

const click = (point: { x: number; y: number }, thought: string): ScriptedMove => ({ action: { action: 'click', ...point }, thought });

/**
 * The screenshot the last turn recalls: the first turn's third, taken after its second step typed the name
 * (a turn's first screenshot is the screen it started from). A middle one, so folded and in cold storage.
 */
export const TYPED_NAME = { turn: 1, screen: 3 } as const;

export const DEMO_TURNS: DemoTurn[] = [
  {
    task: 'Name the team "Platform" and save the settings.',
    moves: [
      click(SANDBOX_LAYOUT.teamNameField, 'The Team name field is empty; I click into it.'),
      { action: { action: 'type', text: 'Platform' }, thought: 'Typing the new name.' },
      click(SANDBOX_LAYOUT.saveButton, 'Now I save.'),
      { finish: 'The team is named "Platform" and the settings are saved.' },
    ],
  },
  {
    task: 'Turn on the weekly summary email, and save again.',
    moves: [
      click(SANDBOX_LAYOUT.weeklySummaryBox, 'The weekly summary box is unticked; I tick it.'),
      click(SANDBOX_LAYOUT.saveButton, 'Saving.'),
      { action: { action: 'wait', seconds: 1 }, thought: 'I give the save a moment, to be sure it went through.' },
      { finish: 'The weekly summary email is on and saved.' },
    ],
  },
  {
    task: 'Add Ada Lovelace to the team members.',
    moves: [
      click(SANDBOX_LAYOUT.newMemberField, 'I click the "Name or email" field under Members.'),
      { action: { action: 'type', text: 'Ada Lovelace' }, thought: 'Typing her name.' },
      click(SANDBOX_LAYOUT.addButton, 'And Add.'),
      { finish: 'Ada Lovelace is now a member of the team.' },
    ],
  },
  {
    task: 'What did the page look like while you were typing the team name?',
    moves: [
      {
        tool: 'get_history_image',
        argumentsFrom: (request) => ({ image_id: placeholderOfTurn(request, TYPED_NAME.turn, TYPED_NAME.screen) }),
        thought: 'That was in the first turn, whose screenshots are folded now: I look at the one after typing the name again.',
      },
      { finish: 'While I typed it, the Team name field read "Platform", not yet saved.' },
    ],
  },
];

/** An older turn names its folded screenshots in one line: `[Visual_Placeholders: img_… img_…] turn 1's images, oldest first`. */
const TURN_PLACEHOLDERS = /\[Visual_Placeholders: ([^\]]+)\] turn (\d+)'s images/g;

/** The id of a turn's screenshot (counted from 1, oldest first) as the request's placeholder line for that turn shows it. */
function placeholderOfTurn(request: RequestSummary, turn: number, screen: number): string {
  const line = [...request.text.matchAll(TURN_PLACEHOLDERS)].find((match) => Number(match[2]) === turn);
  if (line === undefined) throw new Error(`the request shows no placeholder line for turn ${turn}`);
  const imageId = line[1]!.trim().split(/\s+/)[screen - 1];
  if (imageId === undefined) throw new Error(`turn ${turn}'s placeholder line names fewer than ${screen} screenshots`);
  return imageId;
}
