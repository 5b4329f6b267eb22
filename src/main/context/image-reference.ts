/**
 * How images are named in the text the model reads. Every image in a request is preceded by its id as a
 * token (`<img_3f9c0a12b7e4>`), so the model can say which screenshot it means, and an image whose pixels
 * cannot be loaded is replaced by a line that says so, instead of failing the whole request.
 */
export function imageToken(imageId: string): string {
  return `<${imageId}>`;
}

/**
 * The text before an image in a request: its id token, and for a reduced view a note that it is one, so the
 * model knows the full frame is a get_history_image call away.
 */
export function imageLabel(imageId: string, resolution: 'reduced' | undefined): string {
  return resolution === 'reduced' ? `${imageToken(imageId)} (reduced view; get_history_image ${imageId} shows it in full)` : imageToken(imageId);
}

/** The longest edge a reduced view is encoded at: never more than a full image's. */
export function reducedEdge(maxImageEdge: number, reducedImageEdge: number): number {
  return Math.min(maxImageEdge, reducedImageEdge);
}

export function unavailableImageText(imageId: string, reason: string): string {
  return `[image ${imageId} unavailable: ${reason}]`;
}
