/**
 * What the SDK throws, each saying what happened and what to do. A step's error carries the step: its session
 * and turn (to open in `sightline sessions show` or the timeline), the model's reason and the frames it relied on.
 */
import type { StepRecord } from './step-record.js';

export class SightlineError extends Error {
  override name = 'SightlineError';
}

/** The options, the configuration or the machine are not fit to start (a missing key, no browser, a bad flag). */
export class SightlineSetupError extends SightlineError {
  override name = 'SightlineSetupError';
}

/** A step did not come to a good end: the model failed, gave up, or its answers did not fit. */
export class StepFailedError extends SightlineError {
  override name = 'StepFailedError';
  constructor(
    message: string,
    readonly step: StepRecord,
  ) {
    super(message);
  }

  get reason(): string {
    return this.step.reason ?? '';
  }

  get evidence(): readonly string[] {
    return this.step.evidence;
  }
}

/** `assert`: the model judged the statement false. `reason` says why; `evidence` names the frames that show it. */
export class AssertionFailedError extends StepFailedError {
  override name = 'AssertionFailedError';
}

/** `waitFor`: the condition was not met in time. */
export class WaitTimeoutError extends StepFailedError {
  override name = 'WaitTimeoutError';
}

/** The step was stopped (close(), or the signal given to it) before it ended. */
export class StepStoppedError extends StepFailedError {
  override name = 'StepStoppedError';
}

/** Where to look at a step, for the end of an error message. */
export function whereToLook(step: Pick<StepRecord, 'sessionId' | 'evidence'>): string {
  const evidence = step.evidence.length === 0 ? '' : ` Evidence: ${step.evidence.join(', ')}.`;
  return `${evidence} See it with \`sightline sessions show ${step.sessionId}\` or in \`sightline timeline\`.`;
}
