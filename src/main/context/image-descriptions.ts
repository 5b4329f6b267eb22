/**
 * Image rows and their captions, looked up once per request (or compaction) and remembered: a request
 * names the same images many times, and a caption needs the steps of the image's turn.
 */
import type { ImageRecord, StepRecord, Storage } from '../storage/index.js';
import { captionOf } from './captions.js';

export class ImageDescriptions {
  private readonly records = new Map<string, ImageRecord | undefined>();
  private readonly stepsByTurn = new Map<string, StepRecord[]>();

  constructor(private readonly storage: Storage) {}

  record(imageId: string): ImageRecord | undefined {
    if (!this.records.has(imageId)) this.records.set(imageId, this.storage.images.get(imageId));
    return this.records.get(imageId);
  }

  /** Remembers rows already read in bulk (a turn's or a session's images). */
  remember(images: readonly ImageRecord[]): void {
    for (const image of images) this.records.set(image.id, image);
  }

  steps(turnId: string): StepRecord[] {
    let steps = this.stepsByTurn.get(turnId);
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
}
