/** ShownImages: the view of each image as the model last saw it, and how one it has not seen would be shown. */
import { describe, expect, it } from 'vitest';
import { shownScreenshot } from '../../src/shared/model-view.js';
import { ShownImages } from '../../src/main/context/shown-images.js';
import { FIT_EDGE } from '../../src/main/llm/model-profiles.js';

const SHOWING = { maxImageEdge: 1280, imageSizing: FIT_EDGE, coordinateSpace: 'pixels' as const };
const FRAME = { id: 'img_00000000000a', width: 2560, height: 1600 };

function sentAt(imageId: string, width: number, height: number, frame = FRAME) {
  return shownScreenshot(imageId, { width, height, frameWidth: frame.width, frameHeight: frame.height }, 'pixels');
}

describe('ShownImages', () => {
  it('gives the last showing of an image, and for one not shown the size get_history_image shows it at', () => {
    const shown = ShownImages.of(SHOWING, [sentAt(FRAME.id, 1280, 800), sentAt(FRAME.id, 640, 400)]);
    expect(shown.viewOf(FRAME)).toMatchObject({ imageWidth: 640, imageHeight: 400, frameWidth: 2560, frameHeight: 1600 });
    expect(shown.recalledViewOf(FRAME)).toMatchObject({ imageWidth: 1280, imageHeight: 800 });
    expect(shown.viewOf({ id: 'img_00000000000b', width: 300, height: 200 })).toEqual({
      frameWidth: 300, frameHeight: 200, imageWidth: 300, imageHeight: 200, coordinateSpace: 'pixels',
    });
  });

  it('ignores a view made from a frame of another size than the stored image', () => {
    const shown = ShownImages.of(SHOWING, [sentAt(FRAME.id, 100, 100, { id: FRAME.id, width: 100, height: 100 })]);
    expect(shown.viewOf(FRAME)).toMatchObject({ imageWidth: 1280, imageHeight: 800 });
  });

  it('keeps at most the limit, dropping the images shown longest ago, and is not changed by what it makes', () => {
    const first = ShownImages.of(SHOWING, [sentAt('img_000000000001', 640, 400), sentAt('img_000000000002', 640, 400)]);
    const later = first.with([sentAt('img_000000000001', 320, 200), sentAt('img_000000000003', 640, 400)], 2);
    expect(later.toJSON().views.map(([imageId]) => imageId)).toEqual(['img_000000000001', 'img_000000000003']);
    expect(later.viewOf({ ...FRAME, id: 'img_000000000002' })).toMatchObject({ imageWidth: 1280 });
    expect(first.toJSON().views.map(([imageId]) => imageId)).toEqual(['img_000000000001', 'img_000000000002']);
  });
});
