/**
 * Renders the one source image into every icon the installers need (see icons.ts, which runs it).
 * Each size is rendered from the vector at that size, which keeps small icons sharper than scaling a
 * large bitmap down.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { icnsContainer, icoContainer, type IconImage } from './icon-containers.js';

/** The Linux icon set (electron-builder's `icons/` folder, <size>x<size>.png). */
export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024] as const;
/** What Windows shows, from the taskbar's 16 px to the 256 px of large icon views. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
const ALL_SIZES = [...new Set([...LINUX_SIZES, ...ICO_SIZES])].sort((a, b) => a - b);

/** The width the source SVG declares: rendering at 72 dpi gives this many pixels. */
const SOURCE_WIDTH = 1024;

export interface GeneratedIcons {
  icns: string;
  ico: string;
  pngs: string[];
}

export async function generateIcons(sourceSvgPath: string, outputFolder: string): Promise<GeneratedIcons> {
  const source = readFileSync(sourceSvgPath);
  const images: IconImage[] = [];
  for (const size of ALL_SIZES) images.push({ size, png: await renderPng(source, size) });
  const pngOf = (size: number): IconImage => images.find((image) => image.size === size)!;

  mkdirSync(join(outputFolder, 'icons'), { recursive: true });
  const pngs = LINUX_SIZES.map((size) => {
    const path = join(outputFolder, 'icons', `${size}x${size}.png`);
    writeFileSync(path, pngOf(size).png);
    return path;
  });
  const ico = join(outputFolder, 'icon.ico');
  writeFileSync(ico, icoContainer(ICO_SIZES.map(pngOf)));
  const icns = join(outputFolder, 'icon.icns');
  writeFileSync(icns, icnsContainer(images));
  return { icns, ico, pngs };
}

async function renderPng(svg: Buffer, size: number): Promise<Buffer> {
  return sharp(svg, { density: (72 * size) / SOURCE_WIDTH })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}
