/**
 * A crop is an image of its own: stored content-addressed like a screenshot, with an id the model can recall
 * and a caption that says what it was cut from. crop_image and Claude's zoom both keep their crops this way.
 */
import type { CroppedImage } from '../../perception/image-crop.js';
import type { ImageRecord } from '../../storage/index.js';
import type { ToolCallScope } from './tool-definition.js';

export function storeCrop(scope: ToolCallScope, cropped: CroppedImage, caption: string): Promise<ImageRecord> {
  return scope.storage.images.put({
    sessionId: scope.sessionId,
    turnId: scope.turnId,
    bytes: cropped.bytes,
    mime: cropped.mimeType,
    width: cropped.width,
    height: cropped.height,
    source: 'crop',
    caption,
  });
}
