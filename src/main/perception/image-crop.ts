/**
 * One region of a stored image, cut out and optionally enlarged, as a lossless PNG: what `crop_image`
 * stores and shows the model. sharp works from the encoded bytes (extract, then resize), so the only
 * decoded pixels alive are those of the one image being cropped.
 */
import sharp from 'sharp';

/** A box in the image's own pixels: left and top inclusive, right and bottom exclusive. */
export interface CropBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface CroppedImage {
  bytes: Buffer;
  mimeType: 'image/png';
  width: number;
  height: number;
}

/** Cuts `box` out of the encoded image `bytes` and enlarges it `scale` times (1 keeps its size). */
export async function cropImageRegion(bytes: Buffer, box: CropBox, scale: number): Promise<CroppedImage> {
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  if (!(width > 0 && height > 0)) throw new Error(`an empty box cannot be cropped (${width}×${height})`);
  if (!(scale >= 1)) throw new Error(`scale must be 1 or more, got ${scale}`);
  const outputWidth = Math.round(width * scale);
  const outputHeight = Math.round(height * scale);
  let pipeline = sharp(bytes).extract({ left: box.left, top: box.top, width, height });
  if (outputWidth !== width || outputHeight !== height) {
    pipeline = pipeline.resize(outputWidth, outputHeight, { fit: 'fill', kernel: 'lanczos3' });
  }
  const output = await pipeline.png().toBuffer({ resolveWithObject: true });
  return { bytes: output.data, mimeType: 'image/png', width: output.info.width, height: output.info.height };
}
