/**
 * What every turn on one operator shares, whoever makes its calls (the agent's own model or another agent
 * over MCP): the redactor that keeps configured secrets out of events and stored text, the event emitter
 * behind it, and the screen recorder that captures, dedups and stores the operator's screen.
 */
import type { Config } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import type { Operator } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import { createEventEmitter, createSecretRedactor, type Emit } from './event-emitter.js';
import { ScreenRecorder } from './screen-recorder.js';

/** How long the screen may settle after an action before it is captured. */
const DEFAULT_SETTLE_DELAY_MS = 500;

export interface WatchedOperatorOptions {
  storage: Storage;
  config: Config;
  operator: Operator;
  onEvent?: ((event: AgentEvent) => void) | undefined;
  /** Test seam: tests pass 0. */
  settleDelayMs?: number | undefined;
}

export interface WatchedOperator {
  redact: (text: string) => string;
  emit: Emit;
  screen: ScreenRecorder;
}

export function watchOperator(options: WatchedOperatorOptions): WatchedOperator {
  const { config } = options;
  const redact = createSecretRedactor([config.model.apiKey, config.model.anthropicApiKey, config.search.tavilyApiKey]);
  const emit = createEventEmitter(options.onEvent, redact);
  const screen = new ScreenRecorder({
    operator: options.operator,
    storage: options.storage,
    dedup: config.perception.dedup,
    emit,
    settleDelayMs: options.settleDelayMs ?? DEFAULT_SETTLE_DELAY_MS,
  });
  return { redact, emit, screen };
}
