/**
 * The `files:` patterns of a Midscene batch index, matched as Midscene's CLI matches them (@midscene/cli
 * cli-utils.ts matchYamlFiles, which calls the glob package): relative to the index's folder; a folder stands for
 * every .yml and .yaml file under it; node_modules is skipped; only .yml and .yaml files count; a name starting
 * with a dot is matched only by a pattern that spells the dot; each pattern's matches are sorted. The syntax is
 * the part of glob's that index files use: `*`, `?`, `**`, `{a,b}` and `[abc]`. Folders reached through a
 * symbolic link are not walked (glob's default), and a walk that meets more than MAX_WALKED entries stops with
 * a problem instead of reading a whole disk.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';

/** A batch index names a suite's scripts; walking more entries than this is a pattern that went wrong. */
export const MAX_WALKED = 20_000;

export type PatternMatch = { files: string[] } | { problem: string };

export function matchYamlPattern(pattern: string, folder: string): PatternMatch {
  const absolute = resolve(folder, pattern);
  let effective = isAbsolute(pattern) ? pattern : absolute;
  if (existsSync(absolute) && statSync(absolute).isDirectory()) effective = `${absolute}/**/*.{yml,yaml}`;
  const segments = effective.split(/[\\/]/);
  const firstMagic = segments.findIndex(isMagic);
  if (firstMagic === -1) {
    const file = resolve(effective);
    return { files: existsSync(file) && statSync(file).isFile() && isYaml(file) ? [file] : [] };
  }
  const base = resolve(segments.slice(0, firstMagic).join(sep) || sep);
  const matcher = new RegExp(`^${segmentsPattern(segments.slice(firstMagic))}$`);
  const found: string[] = [];
  const walked = walk(base, '', matcher, found, { count: 0 });
  if (!walked) return { problem: `walks more than ${MAX_WALKED} files and folders under ${base}; narrow the pattern` };
  return { files: found.filter(isYaml).sort() };
}

function isYaml(file: string): boolean {
  return file.endsWith('.yml') || file.endsWith('.yaml');
}

function isMagic(segment: string): boolean {
  return /[*?[{]/.test(segment);
}

/** False when the walk met too many entries. */
function walk(folder: string, relativePath: string, matcher: RegExp, found: string[], seen: { count: number }): boolean {
  let names: string[];
  try {
    names = readdirSync(join(folder, relativePath));
  } catch {
    return true;
  }
  for (const name of names.sort()) {
    seen.count += 1;
    if (seen.count > MAX_WALKED) return false;
    if (name === 'node_modules') continue;
    const path = relativePath === '' ? name : `${relativePath}/${name}`;
    const full = join(folder, path);
    let stats;
    try {
      stats = lstatSync(full);
    } catch {
      continue;
    }
    if (stats.isDirectory()) {
      if (!walk(folder, path, matcher, found, seen)) return false;
      continue;
    }
    // A symbolic link to a file counts as the file; one to a folder is not walked.
    const isFile = stats.isFile() || (stats.isSymbolicLink() && isFileBehindLink(full));
    if (isFile && matcher.test(path)) found.push(full);
  }
  return true;
}

function isFileBehindLink(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The segments after the base as one expression over `/`-separated paths. */
function segmentsPattern(segments: readonly string[]): string {
  let pattern = '';
  let slash = false;
  segments.forEach((segment, index) => {
    if (segment === '**') {
      // Zero or more folders, none hidden; at the end, any file under them.
      pattern += `${slash ? '/' : ''}(?:(?!\\.)[^/]+/)*`;
      if (index === segments.length - 1) pattern += '(?!\\.)[^/]+';
      slash = false;
      return;
    }
    pattern += `${slash ? '/' : ''}${segment.startsWith('.') ? '' : '(?!\\.)'}${segmentPattern(segment)}`;
    slash = true;
  });
  return pattern;
}

function segmentPattern(segment: string): string {
  let pattern = '';
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index]!;
    if (character === '*') pattern += '[^/]*';
    else if (character === '?') pattern += '[^/]';
    else if (character === '[') {
      const end = segment.indexOf(']', index + 2);
      if (end === -1) {
        pattern += '\\[';
        continue;
      }
      const inside = segment.slice(index + 1, end);
      const negated = inside.startsWith('!') || inside.startsWith('^');
      pattern += `[${negated ? '^' : ''}${(negated ? inside.slice(1) : inside).replace(/[\\\]]/g, '\\$&')}]`;
      index = end;
    } else if (character === '{') {
      const end = segment.indexOf('}', index + 1);
      if (end === -1) {
        pattern += '\\{';
        continue;
      }
      pattern += `(?:${segment
        .slice(index + 1, end)
        .split(',')
        .map(segmentPattern)
        .join('|')})`;
      index = end;
    } else pattern += character.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return pattern;
}
