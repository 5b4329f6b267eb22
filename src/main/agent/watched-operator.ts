/**
 * What every turn on one operator shares, whoever makes its calls (the agent's own model or another agent
 * over MCP): the redactor that keeps configured secrets out of events and stored text, the event emitter
 * behind it, and the screen recorder that captures, dedups and stores the operator's screen.
 */
import type { Config } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import { configuredSecrets, redactorOf } from '../../shared/secret-redaction.js';
import type { Operator } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import { SETTLE_TIMING } from '../perception/settle-watch.js';
import { createEventEmitter, type Emit } from './event-emitter.js';
import { ScreenRecorder } from './screen-recorder.js';

export interface WatchedOperatorOptions {
  storage: Storage;
  config: Config;
  operator: Operator;
  onEvent?: ((event: AgentEvent) => void) | undefined;
  /** Test seam: false takes the screenshot after an action at once instead of watching the screen settle. */
  watchSettling?: boolean | undefined;
  /** Secret values beyond the configuration's (a flow's secrets), masked like them. */
  secrets?: readonly string[] | undefined;
}

export interface WatchedOperator {
  redact: (text: string) => string;
  emit: Emit;
  screen: ScreenRecorder;
}

export function watchOperator(options: WatchedOperatorOptions): WatchedOperator {
  const { config } = options;
  // The MCP servers' secrets too: a server's error or a model may echo them as well as a key.
  const redact = redactorOf([...configuredSecrets(config), ...(options.secrets ?? [])]);
  const emit = createEventEmitter(options.onEvent, redact);
  const screen = new ScreenRecorder({
    operator: options.operator,
    storage: options.storage,
    dedup: config.perception.dedup,
    emit,
    ...(options.watchSettling === false ? {} : { settle: { ...SETTLE_TIMING, maxMs: config.perception.settle.maxMs } }),
  });
  return { redact, emit, screen };
}
