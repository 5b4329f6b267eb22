/** RGBA pixels viewed as one 32-bit word each, so hot loops read a pixel with one memory access. */

/**
 * An Int32Array over the same memory (little-endian, as on every platform Sightline runs on: red is the
 * lowest byte, alpha the highest). Signed on purpose: an opaque pixel's word is above 2^31, which an
 * unsigned view hands out as a heap double and slows every loop several times; as int32 it stays a small
 * integer. Typed array views need 4-byte alignment; a Buffer sliced from Node's pool may not have it,
 * and is copied.
 */
export function pixelWords(rgba: Buffer): Int32Array {
  if (rgba.byteOffset % 4 === 0) return new Int32Array(rgba.buffer, rgba.byteOffset, rgba.length >>> 2);
  return new Int32Array(new Uint8Array(rgba).buffer);
}

/** Masks the alpha byte out of a pixel word: screen captures are opaque, only colour matters. */
export const COLOR_MASK = 0x00ffffff;
