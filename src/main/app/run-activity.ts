/**
 * Which runs are under way and in what state, as the run manager announces them on the event bus. The
 * emergency stop's indicator and tray item follow it: the indicator is shown while any run is acting,
 * and the tray's Stop item is enabled while any run exists.
 */
import type { AppEvent, RunState } from '../../shared/app-api.js';
import type { StopIndicatorPhase } from '../../shared/stop-indicator.js';
import type { EventBus } from './event-bus.js';

export interface RunActivitySnapshot {
  phase: StopIndicatorPhase;
  runs: number;
}

/**
 * The phase of many runs: acting while one of them acts, paused when all that are left wait on the person,
 * stopping when all are being stopped, idle when there are none.
 */
export function phaseOf(states: Iterable<RunState>): StopIndicatorPhase {
  const all = [...states];
  if (all.length === 0) return 'idle';
  if (all.includes('running')) return 'acting';
  if (all.includes('paused')) return 'paused';
  return 'stopping';
}

export class RunActivity {
  private readonly states = new Map<string, RunState>();
  private readonly listeners = new Set<(snapshot: RunActivitySnapshot) => void>();
  private readonly unsubscribe: () => void;

  constructor(events: EventBus) {
    this.unsubscribe = events.subscribe((event) => this.follow(event));
  }

  snapshot(): RunActivitySnapshot {
    return { phase: phaseOf(this.states.values()), runs: this.states.size };
  }

  /** Called at every change of the snapshot; returns the function that stops listening. */
  onChange(listener: (snapshot: RunActivitySnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private follow(event: AppEvent): void {
    if (event.type !== 'run-state') return;
    const before = this.snapshot();
    if (event.state === 'ended') this.states.delete(event.sessionId);
    else this.states.set(event.sessionId, event.state);
    const after = this.snapshot();
    if (after.phase === before.phase && after.runs === before.runs) return;
    for (const listener of [...this.listeners]) listener(after);
  }
}
