/**
 * How the CLI says a run's setup failure a person can fix (no key, no display, no browser, a url for the
 * desktop operator): exit 2 with the layer's own message, like any usage error. `sightline run` and
 * `sightline mcp` share it.
 */
import { RunSetupError } from '../app/run-assembly.js';
import { EXIT, UserError } from './io.js';

/** Runs one setup step; a RunSetupError from it becomes a UserError (exit 2), anything else passes through. */
export async function explainSetupErrors<Value>(step: () => Value | Promise<Value>): Promise<Value> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof RunSetupError ? new UserError(error.message, EXIT.usage) : error;
  }
}
