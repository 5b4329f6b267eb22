/**
 * The report's styles: the timeline's own stylesheets, then the report's layout on top, as one text. From the
 * sources when Sightline runs from them (tsx, tests); in a build, from the copy the main build writes beside
 * the code (electron.vite.config.ts emits it as out/main/report.css), so the app and the npm package carry it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** In the order they apply, from the package's root. */
export const REPORT_STYLESHEETS = ['src/renderer/src/styles.css', 'src/renderer/src/timeline.css', 'src/renderer/src/report/report.css'] as const;
export const BUILT_REPORT_STYLES = 'report.css';

let cached: string | undefined;

export function reportStyles(): string {
  cached ??= readReportStyles(dirname(fileURLToPath(import.meta.url)));
  return cached;
}

function readReportStyles(here: string): string {
  // In a build this module may sit in out/main/chunks/, one folder below the stylesheet.
  const built = [join(here, BUILT_REPORT_STYLES), join(dirname(here), BUILT_REPORT_STYLES)].find((path) => existsSync(path));
  if (built !== undefined) return readFileSync(built, 'utf8');
  for (let folder = here; ; folder = dirname(folder)) {
    if (REPORT_STYLESHEETS.every((sheet) => existsSync(join(folder, sheet)))) return joinedStyles(folder);
    if (dirname(folder) === folder) break;
  }
  throw new Error(`the report's stylesheets are missing (no ${BUILT_REPORT_STYLES} beside ${here}, nor the sources above it)`);
}

/** The stylesheets as one text, without their comments: the report carries them in every file. */
export function joinedStyles(root: string): string {
  return REPORT_STYLESHEETS.map((sheet) => readFileSync(join(root, sheet), 'utf8'))
    .join('\n')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\n\s*\n/g, '\n');
}
