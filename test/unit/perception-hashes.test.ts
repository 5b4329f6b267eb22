/** The global hashes: format, identity, and the properties each construction promises. */
import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/main/perception/frame.js';
import { bitsToHex, hammingDistance } from '../../src/main/perception/hash-bits.js';
import { computeHash, HASH_ALGORITHMS } from '../../src/main/perception/hashes.js';

function imageOf(width: number, height: number, colourAt: (x: number, y: number) => [number, number, number]): RawImage {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [red, green, blue] = colourAt(x, y);
      rgba.set([red, green, blue, 255], (y * width + x) * 4);
    }
  }
  return { rgba, width, height };
}

/** A busy, screen-like test card: a gradient, a few blocks and stripes. */
function testCard(width = 640, height = 360): RawImage {
  return imageOf(width, height, (x, y) => {
    const inBlock = (x > width * 0.1 && x < width * 0.4 && y > height * 0.2 && y < height * 0.5) || (x > width * 0.6 && y > height * 0.6);
    const stripe = Math.floor(y / 20) % 2 === 0 && x < width * 0.05;
    if (inBlock) return [230, 230, 240];
    if (stripe) return [250, 60, 40];
    const shade = Math.round((x / width) * 120 + (y / height) * 60);
    return [shade, shade, shade + 20];
  });
}

describe('hash format and distance', () => {
  it('packs 64 bits into 16 hex characters, first bit most significant', () => {
    const bits = Array.from({ length: 64 }, (_, index) => index === 0 || index === 63);
    expect(bitsToHex(bits)).toBe('8000000000000001');
  });

  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000003')).toBe(2);
  });

  it('refuses strings that are not hashes', () => {
    expect(() => hammingDistance('abc', '0000000000000000')).toThrow(/16 lowercase hex/);
  });
});

describe.each(HASH_ALGORITHMS)('%s', (algorithm) => {
  it('is 16 hex characters, and the same image hashes to distance 0', () => {
    const card = testCard();
    const copy = { ...card, rgba: Buffer.from(card.rgba) };
    const hash = computeHash(card, algorithm);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance(hash, computeHash(copy, algorithm))).toBe(0);
  });

  it('tells a screen apart from its mirror image', () => {
    const card = testCard();
    const mirrored = imageOf(card.width, card.height, (x, y) => {
      const index = (y * card.width + (card.width - 1 - x)) * 4;
      return [card.rgba[index]!, card.rgba[index + 1]!, card.rgba[index + 2]!];
    });
    expect(hammingDistance(computeHash(card, algorithm), computeHash(mirrored, algorithm))).toBeGreaterThan(10);
  });

  it('barely moves under a small brightness shift', () => {
    const card = testCard();
    const brighter = { ...card, rgba: Buffer.from(card.rgba.map((value, index) => (index % 4 === 3 ? value : Math.min(255, value + 6)))) };
    expect(hammingDistance(computeHash(card, algorithm), computeHash(brighter, algorithm))).toBeLessThanOrEqual(4);
  });
});

describe('our hashes are scale-invariant (they read an area-averaged grid)', () => {
  it.each(['phash', 'dhash', 'ahash'] as const)('%s of a card and of the same card at twice the size', (algorithm) => {
    const small = testCard(320, 180);
    const large = imageOf(640, 360, (x, y) => {
      const index = (Math.floor(y / 2) * 320 + Math.floor(x / 2)) * 4;
      return [small.rgba[index]!, small.rgba[index + 1]!, small.rgba[index + 2]!];
    });
    expect(hammingDistance(computeHash(small, algorithm), computeHash(large, algorithm))).toBeLessThanOrEqual(2);
  });
});

describe('known constructions', () => {
  it('aHash sets exactly the bits of the cells brighter than the mean', () => {
    // Left half white, right half black: in each of the 8 rows the first 4 bits are set.
    const halves = imageOf(64, 64, (x) => (x < 32 ? [255, 255, 255] : [0, 0, 0]));
    expect(computeHash(halves, 'ahash')).toBe('f0f0f0f0f0f0f0f0');
  });

  it('dHash sets a bit where the right neighbour is brighter', () => {
    const rising = imageOf(90, 80, (x) => [x * 2, x * 2, x * 2]);
    expect(computeHash(rising, 'dhash')).toBe('ffffffffffffffff');
    const falling = imageOf(90, 80, (x) => [255 - x * 2, 255 - x * 2, 255 - x * 2]);
    expect(computeHash(falling, 'dhash')).toBe('0000000000000000');
  });

  it('pHash of a uniform image has no bit above the median', () => {
    expect(computeHash(imageOf(64, 64, () => [90, 90, 90]), 'phash')).toBe('8000000000000000');
  });
});
