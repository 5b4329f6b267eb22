/**
 * An image's base64 stands as its digest in the bench's prompt readers, so that two requests' images match only
 * when every byte would, without hashing megabytes per request: memoized by the string, which the encoded-image
 * cache hands out the same each time.
 */
import { createHash } from 'node:crypto';

export class ImageDigests {
  private readonly digests = new Map<string, string>();

  of(data: string): string {
    let digest = this.digests.get(data);
    if (digest === undefined) {
      digest = createHash('sha256').update(data).digest('hex');
      this.digests.set(data, digest);
    }
    return digest;
  }

  /** Lets the images' strings go (at a turn's end, when the image cache does). */
  clear(): void {
    this.digests.clear();
  }
}
