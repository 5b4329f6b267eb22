/**
 * The agent never presses the emergency stop's own combination. The global shortcut (Electron's
 * globalShortcut in the app, the input hook of the CLI) sees keys nut-js sends exactly as it sees the
 * person's, so a key action pressing it would stop the run the agent is doing; a model could even stop
 * itself on purpose. Refusing the combination here, before any key goes down, keeps the stop the person's
 * alone, and the hook need not guess which key presses are the agent's (a person pressing the stop while
 * the agent types must still stop it).
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { StopModifier, StopShortcut } from '../../shared/stop-shortcut.js';
import { parseKeyCombinations, type KeyChord } from './key-combination.js';

const MODIFIER_KEY_NAMES: Record<StopModifier, string> = { control: 'ctrl', alt: 'alt', shift: 'shift', super: 'super' };

/**
 * The stop shortcut as the chord a key action would press, or undefined when no key action can press its
 * key (the key parser does not know it, so the agent cannot name it either).
 */
export function stopCombinationChord(shortcut: StopShortcut): KeyChord | undefined {
  const modifiers = [...shortcut.modifiers].map((modifier) => MODIFIER_KEY_NAMES[modifier]);
  const parsed = parseKeyCombinations([...modifiers, shortcut.key].join('+'));
  if (!parsed.ok || parsed.chords.length !== 1) return undefined;
  return parsed.chords[0];
}

/** Why the action is refused, or undefined when it does not press the stop combination. */
export function stopCombinationRefusal(action: ComputerAction, stopChord: KeyChord | undefined, label: string): string | undefined {
  if (stopChord === undefined || (action.action !== 'key' && action.action !== 'hold_key')) return undefined;
  const parsed = parseKeyCombinations(action.keys);
  if (!parsed.ok) return undefined;
  if (!parsed.chords.some((chord) => sameKeys(chord, stopChord))) return undefined;
  return `${label} is the emergency stop that lets the person stop you at once; it is never pressed for them. Nothing was done.`;
}

function sameKeys(chord: KeyChord, other: KeyChord): boolean {
  const names = new Set(chord.map((key) => key.nut));
  const otherNames = new Set(other.map((key) => key.nut));
  return names.size === otherNames.size && [...names].every((name) => otherNames.has(name));
}
