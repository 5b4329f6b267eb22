/**
 * Pausing without a hook in the loop: every step starts with a model call, so a model that waits for the
 * gate before each call makes the loop wait before its next step. The step in progress finishes first.
 */
import type { ModelAdapter } from '../llm/model-adapter.js';

/** Resolves when the run may make its next model call (at once unless paused); rejects when `signal` aborts. */
export type StepGate = (signal: AbortSignal | undefined) => Promise<void>;

export function withStepGate(model: ModelAdapter, beforeStep: StepGate): ModelAdapter {
  return {
    profile: model.profile,
    complete: async (request, callOptions) => {
      await beforeStep(callOptions?.signal);
      return model.complete(request, callOptions);
    },
  };
}
