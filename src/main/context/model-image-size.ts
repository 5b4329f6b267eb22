/**
 * The size of the copy of a frame that the model is shown, without encoding it: the same arithmetic as
 * perception's encodeForModel (longest edge at most `maxEdge`, never enlarged, rounded). The system prompt
 * states this size before the first image is encoded; a test holds the two in step.
 */
export function modelImageSize(width: number, height: number, maxEdge: number): { width: number; height: number } {
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The longest image edge worth sending: the model profile's limit or the configured one, whichever is smaller. */
export function effectiveMaxImageEdge(profileMaxEdge: number, configuredMaxEdge: number): number {
  return Math.min(profileMaxEdge, configuredMaxEdge);
}
