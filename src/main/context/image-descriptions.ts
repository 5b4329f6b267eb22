/**
 * Image rows and their captions, looked up once per request (or compaction) and remembered: a request
 * names the same images many times, and a caption needs the steps of the image's turn.
 *
 * A request's descriptions may sit over the ones a turn's cache kept for earlier turns (`over`): those
 * rows do not change while the turn runs, so they are not read again. The running turn's steps are never
 * taken from there: its steps gain results as it goes.
 */
import type { ImageRecord, StepRecord, Storage } from '../storage/index.js';
import { captionOf } from './captions.js';

export class ImageDescriptions {
  private readonly records = new Map<string, ImageRecord | undefined>();
  private readonly stepsByTurn = new Map<string, StepRecord[]>();

  constructor(
    private readonly storage: Storage,
    private readonly earlier?: { descriptions: ImageDescriptions; runningTurnId: string },
  ) {}

  record(imageId: string): ImageRecord | undefined {
    if (this.records.has(imageId)) return this.records.get(imageId);
    if (this.earlier?.descriptions.knows(imageId) === true) return this.earlier.descriptions.record(imageId);
    const record = this.storage.images.get(imageId);
    this.records.set(imageId, record);
    return record;
  }

  /** Remembers rows already read in bulk (a turn's or a session's images). */
  remember(images: readonly ImageRecord[]): void {
    for (const image of images) this.records.set(image.id, image);
  }

  steps(turnId: string): StepRecord[] {
    let steps = this.stepsByTurn.get(turnId) ?? this.earlierSteps(turnId);
    if (steps === undefined) {
      steps = this.storage.steps.listByTurn(turnId);
      this.stepsByTurn.set(turnId, steps);
    }
    return steps;
  }

  /** The image's caption; an id the index does not know says so. */
  caption(imageId: string): string {
    const image = this.record(imageId);
    if (image === undefined) return 'not in the image index';
    return captionOf(image, image.turnId === null ? [] : this.steps(image.turnId));
  }

  private knows(imageId: string): boolean {
    return this.records.has(imageId) || this.earlier?.descriptions.knows(imageId) === true;
  }

  private earlierSteps(turnId: string): StepRecord[] | undefined {
    if (this.earlier === undefined || turnId === this.earlier.runningTurnId) return undefined;
    return this.earlier.descriptions.knownSteps(turnId);
  }

  private knownSteps(turnId: string): StepRecord[] | undefined {
    return this.stepsByTurn.get(turnId) ?? this.earlierSteps(turnId);
  }
}
