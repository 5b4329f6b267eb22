/**
 * Where the AT-SPI helper script is: resources/focus/atspi-focus.py at the project's root, found by walking up
 * from this module, which lives in src/main/operators/focus when run from source and in out/main (or a chunk
 * folder below it) once built. In the packaged app the script is unpacked next to the asar archive
 * (electron-builder.yml's asarUnpack), since python cannot read a file inside it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = join('resources', 'focus', 'atspi-focus.py');
const ASAR = `app.asar`;

export function focusHelperScriptPath(start: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let folder = start; ; folder = dirname(folder)) {
    const candidate = join(folder, SCRIPT);
    const unpacked = candidate.replace(`${ASAR}`, `${ASAR}.unpacked`);
    if (unpacked !== candidate && existsSync(unpacked)) return unpacked;
    if (unpacked === candidate && existsSync(candidate)) return candidate;
    if (dirname(folder) === folder) return undefined;
  }
}
