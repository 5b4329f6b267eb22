#!/usr/bin/env node
// The installed `sightline` command runs the built CLI. From a source checkout, `npm run build` first
// (or use `npm run sightline -- <args>`, which runs the TypeScript sources directly).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('sightline: the CLI is not built yet. Run `npm run build` in the Sightline folder.\n');
  process.exit(2);
}
await import(built);
