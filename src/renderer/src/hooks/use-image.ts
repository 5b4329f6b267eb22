/**
 * One image by id for a component: nothing until `enabled` (the row is visible, the card was clicked),
 * then loading, then the image or why it is unavailable. Loads go through one cache per client, so each
 * image and size is fetched once however many rows show it.
 */
import { useEffect, useState } from 'react';
import { loadImage, type AppApiClient, type LoadedImage } from '../api/index.js';
import { ImageCache, type ImageRequestKey } from '../timeline/image-cache.js';

export type ImageState =
  | { status: 'idle' }
  | { status: 'loading' }
  | LoadedImage
  /** The request itself failed (the app or server could not be reached); a later try may work. */
  | { status: 'failed'; message: string };

const caches = new WeakMap<AppApiClient, ImageCache>();

export function imageCacheFor(client: AppApiClient): ImageCache {
  let cache = caches.get(client);
  if (cache === undefined) {
    cache = new ImageCache((request) =>
      loadImage(client, request.imageId, request.thumbnailWidth === undefined ? {} : { thumbnailWidth: request.thumbnailWidth }),
    );
    caches.set(client, cache);
  }
  return cache;
}

/** `attempt`: a new number asks again after a failed request. */
export function useImage(client: AppApiClient | null, request: ImageRequestKey | null, enabled: boolean, attempt = 0): ImageState {
  const imageId = request?.imageId;
  const thumbnailWidth = request?.thumbnailWidth;
  const cached = client !== null && imageId !== undefined ? imageCacheFor(client).peek({ imageId, thumbnailWidth }) : undefined;
  const [state, setState] = useState<ImageState>(cached ?? { status: 'idle' });
  useEffect(() => {
    if (client === null || imageId === undefined || !enabled) return;
    const cache = imageCacheFor(client);
    const ready = cache.peek({ imageId, thumbnailWidth });
    if (ready !== undefined) {
      setState(ready);
      return;
    }
    let current = true;
    setState({ status: 'loading' });
    cache.get({ imageId, thumbnailWidth }).then(
      (image) => {
        if (current) setState(image);
      },
      (error: unknown) => {
        if (current) setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [client, imageId, thumbnailWidth, enabled, attempt]);
  return cached ?? state;
}
