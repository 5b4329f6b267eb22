/**
 * Hashes are 64 bits written as 16 lowercase hex characters (first bit = most significant bit of the first
 * character), the form stored on the image row and printed by `sightline frames hash`.
 */

export const HASH_BITS = 64;
const HEX_LENGTH = HASH_BITS / 4;
const HASH_PATTERN = /^[0-9a-f]{16}$/;

/** Packs 64 booleans (row-major order of the hash's grid) into a 16-hex-character string. */
export function bitsToHex(bits: readonly boolean[]): string {
  if (bits.length !== HASH_BITS) throw new Error(`a hash has ${HASH_BITS} bits, got ${bits.length}`);
  let hex = '';
  for (let nibbleStart = 0; nibbleStart < HASH_BITS; nibbleStart += 4) {
    let nibble = 0;
    for (let bit = 0; bit < 4; bit++) nibble = (nibble << 1) | (bits[nibbleStart + bit] ? 1 : 0);
    hex += nibble.toString(16);
  }
  return hex;
}

export function isHash(text: string): boolean {
  return HASH_PATTERN.test(text);
}

/** Number of differing bits between two hashes of the same algorithm (0 = same, 64 = opposite). */
export function hammingDistance(first: string, second: string): number {
  if (!isHash(first) || !isHash(second)) {
    throw new Error(`hashes must be ${HEX_LENGTH} lowercase hex characters, got "${first}" and "${second}"`);
  }
  let distance = 0;
  for (let index = 0; index < HEX_LENGTH; index++) {
    let differing = parseInt(first[index]!, 16) ^ parseInt(second[index]!, 16);
    while (differing !== 0) {
      distance += differing & 1;
      differing >>= 1;
    }
  }
  return distance;
}
