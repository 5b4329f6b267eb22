/**
 * Images the timeline has loaded, by id and size, so a thumbnail scrolled past and back, or a placeholder
 * opened twice, costs one request. Holds the promise, so two rows asking at once share one request. A
 * failed request (the server was unreachable) is forgotten so a later look tries again; an `unavailable`
 * answer (purged, missing) is kept: asking again would give the same answer.
 *
 * Bounded: the oldest entries go first once `capacity` is reached, since data URLs of full screenshots are
 * large and a session may have thousands.
 */
import type { LoadedImage } from '../api/index.js';

export interface ImageRequestKey {
  imageId: string;
  /** Absent for the full-size image. */
  thumbnailWidth?: number | undefined;
}

export function imageCacheKey({ imageId, thumbnailWidth }: ImageRequestKey): string {
  return thumbnailWidth === undefined ? `${imageId}@full` : `${imageId}@${thumbnailWidth}`;
}

export type ImageLoader = (request: ImageRequestKey) => Promise<LoadedImage>;

export class ImageCache {
  private readonly entries = new Map<string, Promise<LoadedImage>>();
  private readonly settled = new Map<string, LoadedImage>();

  constructor(
    private readonly load: ImageLoader,
    private readonly capacity = 400,
  ) {}

  /** The image, from the cache or loaded once. */
  get(request: ImageRequestKey): Promise<LoadedImage> {
    const key = imageCacheKey(request);
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Re-insert: a Map iterates in insertion order, so this marks it most recently used.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const pending = this.load(request).then(
      (image) => {
        if (this.entries.get(key) === pending) this.settled.set(key, image);
        return image;
      },
      (error: unknown) => {
        this.entries.delete(key);
        throw error;
      },
    );
    this.entries.set(key, pending);
    this.evict();
    return pending;
  }

  /** What is already loaded, without a request: lets a row render its image on the first paint. */
  peek(request: ImageRequestKey): LoadedImage | undefined {
    return this.settled.get(imageCacheKey(request));
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.capacity) return;
      this.entries.delete(key);
      this.settled.delete(key);
    }
  }
}
