/**
 * `npm run build:types`, the last part of `npm run build`: the SDK's type declarations in out/types, the ones
 * package.json's `exports` names. tsc (tsconfig.sdk.json) emits a declaration for every module the SDK's
 * sources import, though its public surface reaches only a few; the others are deleted so the package carries
 * only what a consumer's compiler reads. The build fails when a declaration it keeps imports a package whose
 * types a consumer would not have: one that is not among the package's `dependencies` (electron, the renderer's
 * React), or one whose types live in a @types package that is only a devDependency (better-sqlite3's).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const projectRoot = resolve(import.meta.dirname, '..');
const typesRoot = join(projectRoot, 'out', 'types');
const entry = join(typesRoot, 'main', 'automation', 'index.d.ts');

// Every module specifier a declaration file can hold: import/export … from, import("…") and triple-slash types.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\/\/\/\s*<reference\s+types\s*=\s*)["']([^"']+)["']/g;

function emit(): void {
  rmSync(typesRoot, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(projectRoot, 'tsconfig.sdk.json')], { cwd: projectRoot, stdio: 'inherit' });
  if (result.status !== 0) fail('tsc could not emit the SDK declarations (tsconfig.sdk.json); see its errors above.');
}

/** The declaration files the entry reaches, and the packages they import with the files that import each. */
function reach(): { files: Set<string>; packages: Map<string, string[]> } {
  const files = new Set<string>();
  const packages = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) {
        queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
      } else {
        const name = packageName(specifier);
        packages.set(name, [...(packages.get(name) ?? []), relative(projectRoot, file)]);
      }
    }
  }
  return { files, packages };
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function checkPackages(packages: Map<string, string[]>): void {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
  const builtins = new Set(builtinModules);
  const typed = (name: string): boolean => dependencies.has(name) && (shipsTypes(name) || dependencies.has(typesPackageOf(name)));
  const foreign = [...packages].filter(([name]) => !name.startsWith('node:') && !builtins.has(name) && !typed(name));
  if (foreign.length > 0) {
    fail(
      `the SDK's declarations import packages whose types a consumer would not have (not in package.json's dependencies, or typed by a @types package that is not):\n${foreign
        .map(([name, importers]) => `  ${name}, imported by ${[...new Set(importers)].join(', ')}`)
        .join('\n')}\nKeep such types out of the SDK's public surface (src/main/automation/index.ts), or mark them @internal.`,
    );
  }
}

/** Whether the installed package carries its own declarations (types, typings, a types condition, index.d.ts). */
function shipsTypes(name: string): boolean {
  const folder = join(projectRoot, 'node_modules', name);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { types?: unknown; typings?: unknown; exports?: unknown };
  return manifest.types !== undefined || manifest.typings !== undefined || JSON.stringify(manifest.exports ?? {}).includes('"types"') || existsSync(join(folder, 'index.d.ts'));
}

/** DefinitelyTyped's name for a package: better-sqlite3 → @types/better-sqlite3, @scope/name → @types/scope__name. */
function typesPackageOf(name: string): string {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

function prune(keep: Set<string>, folder: string = typesRoot): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) {
      prune(keep, path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (!keep.has(path)) {
      rmSync(path);
    }
  }
}

function fail(message: string): never {
  process.stderr.write(`build:types: ${message}\n`);
  process.exit(1);
}

emit();
const { files, packages } = reach();
checkPackages(packages);
prune(files);
process.stdout.write(`build:types: ${files.size} declaration files in ${relative(projectRoot, typesRoot)} (imports: ${[...packages.keys()].sort().join(', ') || 'none'})\n`);
