/**
 * How images are named in the text the model reads. Every image in a request is preceded by its id as a
 * token (`<img_3f9c0a12b7e4>`), so the model can say which screenshot it means, and an image whose pixels
 * cannot be loaded is replaced by a line that says so, instead of failing the whole request.
 */
export function imageToken(imageId: string): string {
  return `<${imageId}>`;
}

export function unavailableImageText(imageId: string, reason: string): string {
  return `[image ${imageId} unavailable: ${reason}]`;
}
