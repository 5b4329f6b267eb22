/**
 * `npm run bench [-- name…]`: runs every benchmark section (each bench/*.ts file exporting `section`, see
 * harness.ts), or only the named ones, and prints their markdown one after the other.
 * Figures are medians of several runs on this machine; compare rows of the same run, not across machines.
 */
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchSection } from './harness.js';

const BENCH_FOLDER = dirname(fileURLToPath(import.meta.url));
const NOT_SECTIONS = new Set(['run.ts', 'harness.ts']);

async function loadSections(): Promise<BenchSection[]> {
  const files = readdirSync(BENCH_FOLDER)
    .filter((file) => file.endsWith('.ts') && !NOT_SECTIONS.has(file))
    .sort();
  const sections: BenchSection[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(join(BENCH_FOLDER, file)).href)) as { section?: BenchSection };
    if (!module.section) throw new Error(`bench/${file} does not export a \`section\` (see bench/harness.ts)`);
    sections.push(module.section);
  }
  return sections;
}

const wanted = process.argv.slice(2);
const sections = await loadSections();
const unknown = wanted.filter((name) => !sections.some((section) => section.name === name));
if (unknown.length > 0) {
  console.error(`unknown bench section: ${unknown.join(', ')} (available: ${sections.map((section) => section.name).join(', ')})`);
  process.exit(2);
}
const chosen = wanted.length > 0 ? sections.filter((section) => wanted.includes(section.name)) : sections;

console.log(`# Sightline benchmarks\n\nNode ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}\n`);
for (const section of chosen) {
  console.log(`## ${section.title}\n`);
  console.log(`${await section.run()}\n`);
}
