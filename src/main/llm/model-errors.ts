/**
 * The failures a model call can end in, as classes the callers can tell apart (the agent stops quietly
 * on a cancellation, reports a capability error before it spends anything, shows a call error in the
 * timeline). Messages are written for people and never contain an API key.
 */

/** The base of every model failure, so callers can catch them as one kind. */
export class ModelError extends Error {
  override name = 'ModelError';
}

/** The caller aborted the call (its AbortSignal fired). Not a failure of the model or the endpoint. */
export class ModelCallCancelledError extends ModelError {
  override name = 'ModelCallCancelledError';
  constructor(model: string) {
    super(`The call to model "${model}" was cancelled.`);
  }
}

/** The request asks for something the model's profile says it cannot do; raised before any network call. */
export class ModelCapabilityError extends ModelError {
  override name = 'ModelCapabilityError';
}

/** The adapter cannot be built from the configuration (missing key, unusable URL). */
export class ModelConfigurationError extends ModelError {
  override name = 'ModelConfigurationError';
}

/** The request is malformed for reasons of ours (an image without pixels, say): a bug upstream, not the user's. */
export class ModelRequestError extends ModelError {
  override name = 'ModelRequestError';
}

/**
 * Which setting an endpoint's answer says is wrong: the key (401, 403), the model's name (404), or the base URL
 * (nothing listens there). A person fixes these, and no retry or other task would go better until they do.
 */
export type ModelSetupFault = 'key' | 'model' | 'base-url';

/** The endpoint failed or refused the call, after the client's retries. */
export class ModelCallError extends ModelError {
  override name = 'ModelCallError';
  /** HTTP status, when the endpoint answered at all. */
  readonly status: number | undefined;
  /** Whether waiting and calling again might succeed (rate limit, server error, timeout). */
  readonly retryable: boolean;
  /** Set when the answer means the setup is wrong, not the task. */
  readonly setup: ModelSetupFault | undefined;
  constructor(message: string, options: { status?: number | undefined; retryable: boolean; setup?: ModelSetupFault | undefined }) {
    super(message);
    this.status = options.status;
    this.retryable = options.retryable;
    this.setup = options.setup;
  }
}

/** A provider's own tool declared to an API that cannot carry it (the dialect and the API do not match). */
export function unsendableNativeTool(toolName: string, native: { kind: string }, api: string): ModelCapabilityError {
  return new ModelCapabilityError(
    `The tool "${toolName}" is a native ${native.kind} tool, which ${api} cannot carry; choose the model's own API or another dialect.`,
  );
}
