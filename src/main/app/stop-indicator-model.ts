/**
 * The emergency stop indicator's state machine, apart from any window: what it shows, and whether it is
 * on screen and clickable at each moment. It is wanted on screen while a run exists. Around each capture
 * and action of the agent it is concealed, so the agent neither sees nor clicks it: where the system keeps
 * a content-protected window out of screenshots (macOS, Windows) it only lets clicks through for the
 * action's length and stays visible to the person; where it cannot (Linux) it is hidden, like the main
 * window, and shown again afterwards unless the runs ended meanwhile.
 */
import type { StopIndicatorState } from '../../shared/stop-indicator.js';
import type { RunActivitySnapshot } from './run-activity.js';

/** How the indicator keeps out of the agent's way during a capture or action. */
export type IndicatorConcealment = 'hide' | 'click-through';

export function indicatorConcealment(platform: NodeJS.Platform): IndicatorConcealment {
  // Electron's setContentProtection has an effect on macOS and Windows only.
  return platform === 'darwin' || platform === 'win32' ? 'click-through' : 'hide';
}

export interface IndicatorPresentation {
  state: StopIndicatorState;
  /** Whether the window is on screen. */
  visible: boolean;
  /** Whether clicks pass through it to the window below (during an action of the agent). */
  clickThrough: boolean;
}

export class StopIndicatorModel {
  private activity: RunActivitySnapshot = { phase: 'idle', runs: 0 };
  private concealed = false;

  constructor(
    private readonly concealment: IndicatorConcealment,
    private readonly shortcut: string | null,
  ) {}

  /** Runs started, changed state or ended. */
  follow(activity: RunActivitySnapshot): IndicatorPresentation {
    this.activity = activity;
    return this.presentation();
  }

  /** The agent is about to capture or act. */
  conceal(): IndicatorPresentation {
    this.concealed = true;
    return this.presentation();
  }

  /** The capture or action is over. */
  reveal(): IndicatorPresentation {
    this.concealed = false;
    return this.presentation();
  }

  presentation(): IndicatorPresentation {
    const wanted = this.activity.runs > 0;
    const hiddenForAgent = this.concealed && this.concealment === 'hide';
    return {
      state: { phase: this.activity.phase, runs: this.activity.runs, shortcut: this.shortcut },
      visible: wanted && !hiddenForAgent,
      clickThrough: this.concealed && this.concealment === 'click-through',
    };
  }
}
