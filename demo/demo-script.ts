/**
 * What the demo's scripted model does, turn by turn, on the sandbox page (resources/sandbox) in a
 * 1280x800 viewport. It cannot see, so it clicks fixed points of the page's fixed layout (SANDBOX_LAYOUT
 * below, the same points the page's CSS documents); it does check that every request shows it a screenshot.
 */
import type { ScriptedMove } from '../test/helpers/scripted-computer-model.js';

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
];
