/** The turn is being stopped (its signal fired): the loop ends it as stopped rather than as a failure. */
export class TurnStoppedError extends Error {
  override name = 'TurnStoppedError';
  constructor() {
    super('The turn was stopped.');
  }
}
