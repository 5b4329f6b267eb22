/**
 * How each image was shown to the model: the view of every image a request (or an MCP exchange) carried,
 * the last showing of each, and how one it has not carried would be shown if the model asked for it back
 * (get_history_image shows an image at the model's size). A box the model draws on an image (crop_image) is
 * in that image as it was shown, a downscaled copy or 0–1000, not in the stored original's pixels: this is
 * what maps it back.
 *
 * A value, like `ShownScreenshot`: made where images go to a model and passed along with each call, never
 * kept as the state of a moment, so a call cannot be handed the views of another request.
 */
import type { CoordinateSpace, ModelView, ShownScreenshot } from '../../shared/model-view.js';
import type { ImageSizing } from '../llm/model-profiles.js';
import { modelImageSize } from './model-image-size.js';

/** How a model is shown an image it asks for: the longest edge, the profile's sizing, how it names points. */
export interface ImageShowing {
  maxImageEdge: number;
  imageSizing: ImageSizing;
  coordinateSpace: CoordinateSpace;
}

/** What the views need of an image: its id and the size of the stored original. */
export interface ImageSize {
  id: string;
  width: number;
  height: number;
}

export class ShownImages {
  private constructor(
    private readonly showing: ImageShowing,
    private readonly views: ReadonlyMap<string, ModelView>,
  ) {}

  /** The images as shown, in the order they were shown: a later showing of an image is the one that counts. */
  static of(showing: ImageShowing, shown: Iterable<ShownScreenshot> = []): ShownImages {
    return new ShownImages(showing, new Map()).with(shown);
  }

  /**
   * These views and the later showings, the last of each image counting; at most `limit` images are kept
   * (the oldest showings are dropped), for a server that shows images for as long as it runs.
   */
  with(shown: Iterable<ShownScreenshot>, limit = Number.POSITIVE_INFINITY): ShownImages {
    const views = new Map(this.views);
    for (const { imageId, view } of shown) {
      // Deleted first, so the map's order is the order of last showing and the oldest go first.
      views.delete(imageId);
      views.set(imageId, view);
    }
    for (const imageId of views.keys()) {
      if (views.size <= limit) break;
      views.delete(imageId);
    }
    return new ShownImages(this.showing, views);
  }

  /** How the model saw the image last; an image it has not been shown, as get_history_image would show it. */
  viewOf(image: ImageSize): ModelView {
    const view = this.views.get(image.id);
    // A view of another size than the stored original would map boxes onto the wrong pixels.
    if (view !== undefined && view.frameWidth === image.width && view.frameHeight === image.height) return view;
    return this.recalledViewOf(image);
  }

  /** As data, so that two builds can be compared whole (a Map alone would print as `{}`). */
  toJSON(): { showing: ImageShowing; views: [string, ModelView][] } {
    return { showing: this.showing, views: [...this.views] };
  }

  /** How get_history_image shows the image: whole, at the model's size. */
  recalledViewOf(image: ImageSize): ModelView {
    const size = modelImageSize(image.width, image.height, this.showing.maxImageEdge, this.showing.imageSizing);
    return {
      frameWidth: image.width,
      frameHeight: image.height,
      imageWidth: size.width,
      imageHeight: size.height,
      coordinateSpace: this.showing.coordinateSpace,
    };
  }
}
