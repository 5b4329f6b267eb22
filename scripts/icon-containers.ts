/**
 * The two icon containers electron-builder wants, written by hand: both formats may hold PNG images
 * as they are, so a few headers around sharp's PNGs make them (no icon tool as a dependency).
 *   .ico (Windows): ICONDIR, one 16-byte ICONDIRENTRY per image, then the images.
 *   .icns (macOS): 'icns' and the file length, then one (type, length, PNG) block per image.
 */

export interface IconImage {
  /** Width and height in pixels (icons are square). */
  size: number;
  png: Buffer;
}

/** Windows reads 256 px and up from the PNG itself: the entry's one-byte size field says 0. */
export function icoContainer(images: readonly IconImage[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map((image) => {
    if (image.size > 256) throw new Error(`An .ico image is at most 256 px; got ${image.size}.`);
    const entry = Buffer.alloc(16);
    entry.writeUInt8(image.size === 256 ? 0 : image.size, 0);
    entry.writeUInt8(image.size === 256 ? 0 : image.size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(image.png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += image.png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

/**
 * The PNG-holding .icns types: each names a size in points and a scale, so 32 px is both icp5 (16 pt @2x
 * is ic11) and kept under both names, as Apple's iconutil does.
 */
export const ICNS_TYPES: readonly { type: string; size: number }[] = [
  { type: 'icp4', size: 16 },
  { type: 'icp5', size: 32 },
  { type: 'icp6', size: 64 },
  { type: 'ic07', size: 128 },
  { type: 'ic08', size: 256 },
  { type: 'ic09', size: 512 },
  { type: 'ic10', size: 1024 },
  { type: 'ic11', size: 32 },
  { type: 'ic12', size: 64 },
  { type: 'ic13', size: 256 },
  { type: 'ic14', size: 512 },
];

export function icnsContainer(images: readonly IconImage[]): Buffer {
  const bySize = new Map(images.map((image) => [image.size, image.png]));
  const blocks = ICNS_TYPES.map(({ type, size }) => {
    const png = bySize.get(size);
    if (png === undefined) throw new Error(`The .icns needs a ${size} px image for ${type}.`);
    const blockHeader = Buffer.alloc(8);
    blockHeader.write(type, 0, 'ascii');
    blockHeader.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([blockHeader, png]);
  });
  const fileHeader = Buffer.alloc(8);
  fileHeader.write('icns', 0, 'ascii');
  fileHeader.writeUInt32BE(8 + blocks.reduce((total, block) => total + block.length, 0), 4);
  return Buffer.concat([fileHeader, ...blocks]);
}
