/** What the stop indicator says in each state: plain functions, so the wording is tested without a window. */
import type { StopIndicatorState } from '../../../shared/stop-indicator.js';

export interface IndicatorText {
  status: string;
  /** The shortcut hint, or empty when the shortcut is not available. */
  shortcut: string;
  /** The button's label, and whether it can be pressed (a second Stop while stopping does nothing). */
  button: string;
  buttonEnabled: boolean;
}

export function indicatorText(state: StopIndicatorState): IndicatorText {
  const shortcut = state.shortcut === null ? '' : `or press ${state.shortcut}`;
  const several = state.runs > 1 ? ` (${state.runs} tasks)` : '';
  switch (state.phase) {
    case 'acting':
      return { status: `Sightline is acting${several}`, shortcut, button: 'Stop', buttonEnabled: true };
    case 'paused':
      return { status: `Sightline is paused${several}`, shortcut, button: 'Stop', buttonEnabled: true };
    case 'stopping':
      return { status: 'Stopping…', shortcut: '', button: 'Stopping', buttonEnabled: false };
    case 'idle':
      return { status: 'Sightline is idle', shortcut: '', button: 'Stop', buttonEnabled: false };
  }
}
