/**
 * Midscene's batch index (a "config file" for `midscene --config`: https://midscenejs.com/command-line-tools,
 * "Write command-line arguments in a file"; its keys and defaults as @midscene/cli's config-factory.ts reads them,
 * web-infra-dev/midscene at d0841be): `files:` names the scripts of one suite, and `concurrent`, `continueOnError`
 * and `summary` say how the suite runs. Sightline runs the scripts as one suite with those settings. What cannot
 * mean anything here (a shared browser context, a headed window, .env loading, platform defaults) is ignored with
 * a one-line note, and a key Midscene does not know is a problem, as in a script.
 */
import { dirname, relative, resolve } from 'node:path';
import { isScalar, type Node, type YAMLMap } from 'yaml';
import type { FlowNodes } from './flow-nodes.js';
import { excerpt } from './templates.js';
import { matchYamlPattern } from './yaml-file-patterns.js';

/** How a batch index says its suite runs. */
export interface BatchSettings {
  /** The index file. */
  file: string;
  /** `concurrent:`; undefined when the index does not say (Midscene's default is 1). */
  concurrent: number | undefined;
  /** `continueOnError:` (default false): whether the scripts after a failed one still start. */
  continueOnError: boolean;
  /** `summary:`, a path inside the index's folder where the run's JSON summary is written. */
  summary: string | undefined;
}

export interface BatchIndex {
  settings: BatchSettings;
  /** Absolute paths of the scripts, in the order `files:` gives them (each pattern's matches sorted). */
  scripts: string[];
  /** One line each, `file:line:column: …`, for the keys that are ignored here. */
  notes: string[];
}

/** The keys Midscene's config file takes (config-factory.ts, ConfigFactoryOptions). */
const BATCH_KEYS = ['files', 'concurrent', 'continueOnError', 'summary', 'shareBrowserContext', 'headed', 'keepWindow', 'dotenvOverride', 'dotenvDebug', 'web', 'android', 'ios'];

/** The most scripts running side by side, as --concurrency allows. */
const MAX_CONCURRENT = 64;

const IGNORED: Record<string, string> = {
  headed: "ignored: whether Sightline's browser shows a window is its own configuration",
  keepWindow: "ignored: Sightline closes each script's browser when the script ends",
  dotenvOverride: 'ignored: Sightline reads no .env file; set the variables in the environment',
  dotenvDebug: 'ignored: Sightline reads no .env file; set the variables in the environment',
  web: "ignored: Sightline does not merge an index's web: into its scripts; put the settings in each script's web:",
  android: 'ignored: Sightline runs web and computer scripts, not Android ones',
  ios: 'ignored: Sightline runs web and computer scripts, not iOS ones',
};

/**
 * A map is a batch index when it has `files:` and none of the keys that make it a script (`tasks:`), a
 * Midscene Test file (`cases:`) or a Sightline flow (`steps:`).
 */
export function isBatchIndexShape(keys: readonly string[]): boolean {
  return keys.includes('files') && !keys.includes('tasks') && !keys.includes('cases') && !keys.includes('steps');
}

export function readBatchIndex(nodes: FlowNodes, map: YAMLMap, file: string): BatchIndex | undefined {
  const entries = nodes.entries(map);
  nodes.unknownKeys(entries, BATCH_KEYS, 'in a Midscene batch index');
  const folder = dirname(file);
  const notes: string[] = [];
  const note = (node: Node, message: string) => {
    const at = nodes.at(node);
    notes.push(`${at.file}:${at.line}:${at.column}: ${message}`);
  };
  const settings: BatchSettings = { file, concurrent: undefined, continueOnError: false, summary: undefined };
  let scripts: string[] | undefined;
  for (const entry of entries) {
    const value = entry.value;
    switch (entry.key) {
      case 'files':
        scripts = readFiles(nodes, value, entry.keyNode, folder);
        break;
      case 'concurrent': {
        const count = isScalar(value) ? value.value : undefined;
        if (typeof count === 'number' && Number.isInteger(count) && count >= 1 && count <= MAX_CONCURRENT) settings.concurrent = count;
        else nodes.problem(value ?? entry.keyNode, `concurrent: expected a whole number from 1 to ${MAX_CONCURRENT}, got ${nodes.describe(value)}`);
        break;
      }
      case 'continueOnError':
        settings.continueOnError = nodes.readBoolean(value, 'continueOnError', entry.keyNode) ?? false;
        break;
      case 'summary': {
        const text = nodes.readString(value, 'summary', entry.keyNode);
        if (text === undefined) break;
        const path = resolve(folder, text.value);
        const part = relative(folder, path);
        if (part === '' || part.startsWith('..') || resolve(folder, part) !== path || !path.endsWith('.json')) {
          nodes.problem(text, `summary: expected a .json file inside the index's folder (${folder}), got ${excerpt(text.value)}; use --out for a file elsewhere`);
        } else settings.summary = path;
        break;
      }
      case 'shareBrowserContext':
        if (nodes.readBoolean(value, 'shareBrowserContext', entry.keyNode) === true) {
          note(entry.keyNode, 'shareBrowserContext: ignored: each script runs in a browser of its own here, so cookies and storage do not pass from one script to the next');
        }
        break;
      default:
        if (Object.hasOwn(IGNORED, entry.key)) note(entry.keyNode, `${entry.key}: ${IGNORED[entry.key]}`);
    }
  }
  if (scripts === undefined) return undefined;
  return { settings, scripts, notes };
}

function readFiles(nodes: FlowNodes, value: Node | undefined, at: Node, folder: string): string[] | undefined {
  const list = nodes.readList(value, 'files', at);
  if (list === undefined) return undefined;
  const scripts: string[] = [];
  let ok = true;
  for (const item of list.items) {
    const pattern = nodes.readString(nodes.resolve(item), 'files: each item', list);
    if (pattern === undefined) {
      ok = false;
      continue;
    }
    const matched = matchYamlPattern(pattern.value, folder);
    if ('problem' in matched) {
      nodes.problem(pattern, `files: ${excerpt(pattern.value)} ${matched.problem}`);
      ok = false;
      continue;
    }
    // As in Midscene, a file matched twice runs twice.
    scripts.push(...matched.files);
  }
  if (!ok) return undefined;
  if (scripts.length === 0) {
    nodes.problem(list.items.length === 0 ? list : value, `files: no .yaml or .yml file matches ${list.items.length === 0 ? 'an empty list' : 'these patterns'} (they are relative to ${folder})`);
    return undefined;
  }
  return scripts;
}

/**
 * `@midscene/test` files (https://midscenejs.com/midscene-test/use, "Write YAML test cases"): `cases:` of
 * `steps:` calling the Nodes a project's midscene.config.ts registers, on a page its setup opens. Without that
 * project the steps mean nothing, so such a file is named for what it is and refused.
 */
export const MIDSCENE_TEST_REFUSAL =
  "is a Midscene Test file (cases:): its steps call the Nodes and the page a midscene.config.ts project sets up, which Sightline does not load; run it with midscene-test, or write it as a Midscene script (web: { url }, tasks: [{ name, flow }]) or a Sightline flow (docs/flows.md, \"Batch index files\")";

export function isMidsceneTestShape(keys: readonly string[]): boolean {
  return keys.includes('cases') && !keys.includes('tasks') && !keys.includes('steps');
}
