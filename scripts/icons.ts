/**
 * `npm run icons`: renders resources/build/icon-source.svg into icon.icns (macOS), icon.ico (Windows)
 * and icons/*.png (Linux) beside it, which electron-builder.yml names. The outputs are committed, so
 * packaging needs no render step; run this after changing the source.
 */
import { relative, resolve } from 'node:path';
import { generateIcons } from './icon-set.js';

const projectRoot = resolve(import.meta.dirname, '..');
const buildResources = resolve(projectRoot, 'resources', 'build');

const generated = await generateIcons(resolve(buildResources, 'icon-source.svg'), buildResources);
for (const path of [generated.icns, generated.ico, ...generated.pngs]) console.warn(`wrote ${relative(projectRoot, path)}`);
