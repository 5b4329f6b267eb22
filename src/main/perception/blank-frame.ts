/**
 * Whether a capture shows nothing at all: every pixel the same colour. That is what macOS hands a process
 * without Screen Recording on some versions (a black frame), and what the doctor, which cannot ask macOS,
 * goes by. A real desktop always has at least a menu bar or a cursor-free edge of another colour.
 */

/** RGBA bytes, 4 per pixel; alpha is ignored. An empty buffer is blank. */
export function isBlankFrame(rgba: Uint8Array, sampleEvery = 1): boolean {
  const stride = 4 * Math.max(1, Math.floor(sampleEvery));
  const [red, green, blue] = [rgba[0], rgba[1], rgba[2]];
  for (let offset = stride; offset + 2 < rgba.length; offset += stride) {
    if (rgba[offset] !== red || rgba[offset + 1] !== green || rgba[offset + 2] !== blue) return false;
  }
  return true;
}
