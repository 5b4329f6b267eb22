/**
 * Flow files in, Flow models out, or every problem of every file at once, each with its file, line and column
 * and what was expected (docs/flows.md, "File format"). A file with `steps:` is a Sightline flow, one with
 * `tasks:` a Midscene script. Sub-flows named by `use:` are read too, once each, with a cycle of `use` named by
 * its chain. Nothing runs and no model is called: the only I/O is reading the flow files themselves.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isMap, isScalar, type Node } from 'yaml';
import { z } from 'zod';
import { closestName } from '../../shared/suggestions.js';
import type { Flow } from './flow-model.js';
import { FlowNodes, listed } from './flow-nodes.js';
import type { FlowReadContext, LoadedFlow } from './flow-read-context.js';
import { flowSizeProblem } from './flow-size.js';
import { readFlowSource, type FlowFileProblem, type FlowSource } from './flow-source.js';
import { isBatchIndexShape, isMidsceneTestShape, MIDSCENE_TEST_REFUSAL, readBatchIndex, type BatchIndex, type BatchSettings } from './midscene-batch.js';
import { readMidsceneFlow } from './midscene-flow.js';
import { readSightlineFlow } from './sightline-flow.js';
import { escapeTemplateText, excerpt, isTemplateName } from './templates.js';

export type { FlowFileProblem } from './flow-source.js';

export class FlowFileError extends Error {
  override name = 'FlowFileError';

  constructor(readonly problems: FlowFileProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(problem: FlowFileProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.message}`;
}

const LoadOptionsSchema = z.object({
  /** --var NAME=VALUE: literal text for the top flows' declared vars and params. */
  vars: z.record(z.string(), z.string()),
  env: z.record(z.string(), z.string().optional()),
  /**
   * The flows will run on another machine (a queue's worker), whose environment gives `${env.NAME}` and the
   * secrets: here their names are checked, not their values (`env` is not read).
   */
  environmentElsewhere: z.boolean().optional(),
  /**
   * Every flow file read must lie inside this folder, on its real path (a symlink does not lead out of it): on a
   * queue's worker, the job's own folder. `name` says what the folder is, in the refusal of a `use:` outside it.
   */
  root: z.object({ folder: z.string().min(1), name: z.string().min(1) }).optional(),
  /** Told each name the flows read from the environment (`${env.NAME}`, a secret): a queue's worker checks them against what it allows. */
  onEnvironmentRead: z.custom<(name: string) => void>((value) => typeof value === 'function').optional(),
});
export type LoadFlowOptions = z.input<typeof LoadOptionsSchema>;

export function loadFlowFile(path: string, options: LoadFlowOptions): Flow {
  const [flow] = loadFlowFiles([path], options);
  if (flow === undefined) throw new FlowFileError([{ file: resolve(path), line: 1, column: 1, message: 'was not read' }]);
  return flow;
}

/** Each file as a flow to run on its own; throws one FlowFileError with the problems of all of them. */
export function loadFlowFiles(paths: readonly string[], options: LoadFlowOptions): Flow[] {
  return loadFlowRun(paths, options).flows;
}

/** The flows of one run, and how a Midscene batch index among the files says the run goes. */
export interface FlowRun {
  /** The command line's files in their order, a batch index's scripts in place of the index. */
  flows: Flow[];
  /** From the batch index named, if one was. */
  batch: BatchSettings | undefined;
  /** One line each (`file:line:column: …`): what a file said that is ignored here. */
  notes: string[];
}

/** loadFlowFiles, with what a batch index says of the run besides its scripts. */
export function loadFlowRun(paths: readonly string[], options: LoadFlowOptions): FlowRun {
  const { vars, env, environmentElsewhere, root, onEnvironmentRead } = LoadOptionsSchema.parse(options);
  const environment = environmentElsewhere === true ? ELSEWHERE : env;
  const loader = new FlowLoader(onEnvironmentRead === undefined ? environment : readsTold(environment, onEnvironmentRead), root);
  const flows: Flow[] = [];
  const usedVars = new Set<string>();
  const notes: string[] = [];
  let batch: BatchSettings | undefined;
  const addFlow = (loaded: LoadedFlow | undefined) => {
    const flow = loaded === undefined ? undefined : topFlow(loader, loaded, vars, usedVars);
    if (flow !== undefined) flows.push(flow);
  };
  for (const path of paths) {
    const file = resolve(path);
    const loaded = loader.loadTop(file, true);
    if (loaded === undefined || !('index' in loaded)) {
      addFlow(loaded);
      continue;
    }
    const { index } = loaded;
    notes.push(...index.notes);
    const disagreement = batch === undefined ? undefined : batchDisagreement(batch, index.settings);
    if (disagreement !== undefined) loader.problems.push({ file, line: 1, column: 1, message: disagreement });
    batch ??= index.settings;
    for (const script of index.scripts) {
      const scriptLoaded = loader.loadTop(script, false);
      addFlow(scriptLoaded === undefined || 'index' in scriptLoaded ? undefined : scriptLoaded);
    }
  }
  const firstFile = paths[0] === undefined ? undefined : resolve(paths[0]);
  for (const name of Object.keys(vars)) {
    if (usedVars.has(name) || firstFile === undefined) continue;
    const declared = [...new Set(loader.topInputs)];
    const suggestion = closestName(name, declared);
    const message = isTemplateName(name)
      ? `--var ${excerpt(name)}: no flow declares ${excerpt(name)} under vars: or params:${suggestion === undefined ? '' : `; did you mean ${suggestion}?`}${declared.length === 0 ? '' : ` (declared: ${listed(declared)})`}`
      : `--var ${excerpt(name)}: expected a name of letters, digits and _`;
    loader.problems.push({ file: firstFile, line: 1, column: 1, message });
  }
  const problems = loader.allProblems();
  if (problems.length > 0) throw new FlowFileError(problems);
  return { flows, batch, notes };
}

/** Two batch indexes in one run must say the same of it: the run has one concurrency and one rule for failures. */
function batchDisagreement(first: BatchSettings, other: BatchSettings): string | undefined {
  const differs = (['concurrent', 'continueOnError', 'summary'] as const).filter((key) => first[key] !== other[key]);
  if (differs.length === 0) return undefined;
  return `says ${listed(differs, 'and')} otherwise than ${basename(first.file)}; run batch indexes that differ in separate runs`;
}

/** A flow run on its own: it needs a target, and --var gives its params and overrides its vars. */
function topFlow(loader: FlowLoader, loaded: LoadedFlow, vars: Record<string, string>, usedVars: Set<string>): Flow | undefined {
  const { flow } = loaded;
  loader.topInputs.push(...loaded.inputs);
  const problem = (line: number, column: number, message: string) => loader.problems.push({ file: flow.file, line, column, message });
  let ok = true;
  if (flow.target === undefined) {
    problem(1, 1, 'a flow run on its own needs target: { operator: browser, url: … } or { operator: desktop } (a flow without one can only run under use:)');
    ok = false;
  }
  for (const param of loaded.params) {
    if (Object.hasOwn(vars, param.name)) continue;
    problem(param.at.line, param.at.column, `parameter ${param.name} has no value; pass --var ${param.name}=VALUE`);
    ok = false;
  }
  const overrides: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(vars)) {
    if (!loaded.inputs.includes(name)) continue;
    usedVars.add(name);
    const current = flow.vars[name];
    if (current !== undefined && typeof current !== 'string') {
      problem(1, 1, `--var ${name}: ${name} holds ${Array.isArray(current) ? 'a list' : `a ${current === null ? 'null' : typeof current}`} in the flow; --var sets text only`);
      ok = false;
    }
    // A --var value is literal text: a `${` in it is not a reference.
    overrides[name] = escapeTemplateText(value);
  }
  if (!ok) return undefined;
  const top = { ...flow, vars: { ...flow.vars, ...overrides } };
  const given = Object.fromEntries(Object.entries(vars).filter(([name]) => loaded.inputs.includes(name)));
  const tooBig = flowSizeProblem(top, loaded.varsAt ?? {}, given);
  if (tooBig !== undefined) {
    loader.problems.push(tooBig);
    return undefined;
  }
  return top;
}

/**
 * An environment in which every name is set: the checks that a value exists pass, and what a flow reads from it is a
 * stand-in, never run here (the machine that runs the flow reads its own).
 */
const ELSEWHERE: Record<string, string | undefined> = new Proxy(
  {},
  { get: (_target, name) => (typeof name === 'string' ? `(\${env.${name}} on the worker)` : undefined) },
);

function readsTold(env: Record<string, string | undefined>, told: (name: string) => void): Record<string, string | undefined> {
  return new Proxy(env, {
    get: (target, name) => {
      if (typeof name === 'string') told(name);
      return Reflect.get(target, name) as string | undefined;
    },
  });
}

/** A folder, as written and as its real path: a path is checked against the first, a file against the second. */
interface Folder {
  path: string;
  real: string;
}

class FlowLoader {
  readonly problems: FlowFileProblem[] = [];
  readonly topInputs: string[] = [];
  private readonly sources: { file: string; problems: FlowFileProblem[] }[] = [];
  private readonly loaded = new Map<string, LoadedFlow | undefined>();
  /** The files being read, outermost first: a `use` of one of them is a cycle. */
  private readonly reading: string[] = [];
  /** The folder of the top flow being read: a file outside it is shown only if it is a flow (see `foreign`). */
  private home: Folder | undefined;
  private readonly root: (Folder & { name: string }) | undefined;

  constructor(
    private readonly env: Record<string, string | undefined>,
    root: { folder: string; name: string } | undefined,
  ) {
    this.root = root === undefined ? undefined : { path: resolve(root.folder), real: realPath(root.folder) ?? resolve(root.folder), name: root.name };
  }

  /**
   * A flow named on the command line (or a job's entry): its folder is the one whose files are shown whole. With
   * `indexes`, a Midscene batch index is read as such: its scripts are for the caller to load. On a worker (a
   * root) never: a job is one flow, and the client that enqueued it expanded the index.
   */
  loadTop(file: string, indexes: boolean): LoadedFlow | { index: BatchIndex } | undefined {
    const real = realPath(file);
    if (this.root !== undefined && !(inside(this.root.path, file) && real !== undefined && inside(this.root.real, real))) {
      this.problems.push({ file, line: 1, column: 1, message: `is outside ${this.root.name}` });
      return undefined;
    }
    if (indexes && this.root === undefined && !this.loaded.has(file)) {
      const index = this.batchIndex(file);
      if (index !== 'not an index') return index === undefined ? undefined : { index };
    }
    this.home = { path: dirname(file), real: dirname(real ?? file) };
    return this.load(file, undefined);
  }

  /** The file read as a batch index when it has the shape of one (see isBatchIndexShape). */
  private batchIndex(file: string): BatchIndex | undefined | 'not an index' {
    const source = readFlowSource(file);
    const top = source.document?.contents;
    if (source.document === undefined || !isMap(top)) return 'not an index';
    const nodes = new FlowNodes(source);
    const keys = top.items.flatMap((pair) => (isScalar(pair.key) && typeof pair.key.value === 'string' ? [pair.key.value] : []));
    if (!isBatchIndexShape(keys)) return 'not an index';
    this.sources.push(source);
    this.loaded.set(file, undefined);
    // Its scripts are read even when the index has problems of its own: every problem of the run is shown at once.
    return readBatchIndex(nodes, top, file);
  }

  private load(file: string, foreign: { path: string; at: Node; nodes: FlowNodes } | undefined): LoadedFlow | undefined {
    if (this.loaded.has(file)) return this.loaded.get(file);
    this.reading.push(file);
    const source = readFlowSource(file);
    let loaded: LoadedFlow | undefined;
    if (foreign !== undefined && !looksLikeFlow(source)) {
      // Not a flow, and not in the flow's folder: /etc/passwd, a config file, /proc/self/environ. Its problems
      // would quote it, so none is kept; the `use:` that named it is refused with the path as written.
      foreign.nodes.problem(
        foreign.at,
        `use: ${excerpt(foreign.path)} is not a flow file (a YAML map with steps: or tasks:); it lies outside the folder of ${basename(this.reading[0] ?? file)}, so nothing of it is shown (check it on its own with sightline flow FILE)`,
      );
      this.reading.pop();
      this.loaded.set(file, undefined);
      return undefined;
    }
    this.sources.push(source);
    const document = source.document;
    if (document !== undefined) {
      const nodes = new FlowNodes(source);
      const context: FlowReadContext = { nodes, env: this.env, useFlow: (path, at) => this.use(file, path, at, nodes) };
      loaded = readFlow(context, document.contents ?? undefined);
      // A sub-flow on its own terms (its params count as empty); the top flow is measured with its --var values.
      const tooBig = loaded !== undefined && this.reading.length > 1 ? flowSizeProblem(loaded.flow, loaded.varsAt ?? {}, {}) : undefined;
      if (tooBig !== undefined) source.problems.push(tooBig);
    }
    this.reading.pop();
    const result = source.problems.length === 0 ? loaded : undefined;
    this.loaded.set(file, result);
    return result;
  }

  private use(from: string, path: string, at: Node, nodes: FlowNodes): LoadedFlow | undefined {
    const file = resolve(dirname(from), path);
    const root = this.root;
    // Refused before anything is asked of the file system: whether a file outside exists is not told either.
    if (root !== undefined && !inside(root.path, file)) {
      nodes.problem(at, `use: ${excerpt(path)} is outside ${root.name}`);
      return undefined;
    }
    const start = this.reading.indexOf(file);
    if (start !== -1) {
      const base = dirname(this.reading[0] ?? from);
      const chain = [...this.reading.slice(start), file].map((member) => relative(base, member) || member);
      nodes.problem(at, `use makes a cycle: ${chain.join(' → ')}`);
      return undefined;
    }
    const real = existsSync(file) ? realPath(file) : undefined;
    if (real === undefined) {
      nodes.problem(at, `use: no such flow file ${excerpt(path)} (looked for ${file})`);
      return undefined;
    }
    if (root !== undefined && !inside(root.real, real)) {
      nodes.problem(at, `use: ${excerpt(path)} leads outside ${root.name} (through a symbolic link)`);
      return undefined;
    }
    const home = this.home;
    const foreign = home !== undefined && inside(home.path, file) && inside(home.real, real) ? undefined : { path, at, nodes };
    // A sub-flow with problems reports them in its own file; the step that uses it is dropped quietly.
    return this.load(file, foreign);
  }

  allProblems(): FlowFileProblem[] {
    const seen = new Set<string>();
    const ordered = [...this.sources.flatMap((source) => byPosition(source.problems)), ...this.problems];
    return ordered.filter((problem) => {
      const key = formatProblem(problem);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function inside(folder: string, path: string): boolean {
  const part = relative(folder, path);
  return part !== '' && part !== '..' && !part.startsWith(`..${sep}`) && !isAbsolute(part);
}

/**
 * A file read, parsed, and a map with steps: or tasks: at its top: a flow someone wrote, whose problems may be
 * shown with their text. Anything else outside the flow's folder is refused without a word of it.
 */
function looksLikeFlow(source: FlowSource): boolean {
  const top = source.document?.contents;
  if (source.problems.length > 0 || !isMap(top)) return false;
  return top.items.some((pair) => isScalar(pair.key) && (pair.key.value === 'steps' || pair.key.value === 'tasks'));
}

function byPosition(problems: FlowFileProblem[]): FlowFileProblem[] {
  return [...problems].sort((first, second) => first.line - second.line || first.column - second.column);
}

const MIDSCENE_HINT_KEYS = ['web', 'target', 'page', 'browser', 'computer', 'android', 'ios', 'harmony', 'interface'];

function readFlow(context: FlowReadContext, root: Node | undefined): LoadedFlow | undefined {
  const { nodes } = context;
  if (root === undefined || root === null) {
    nodes.problem(undefined, 'is empty; expected a flow (with steps:) or a Midscene script (with tasks:)');
    return undefined;
  }
  const resolved = nodes.resolve(root);
  if (!isMap(resolved)) {
    nodes.problem(root, `expected a map at the top: a flow (with steps:) or a Midscene script (with tasks:), got ${nodes.describe(resolved)}`);
    return undefined;
  }
  const keys = nodes.entries(resolved).map((entry) => entry.key);
  if (keys.includes('steps') && keys.includes('tasks')) {
    nodes.problem(resolved, 'has both steps: (a Sightline flow) and tasks: (a Midscene script); a file is one or the other');
    return undefined;
  }
  if (keys.includes('tasks')) return readMidsceneFlow(context, resolved);
  if (keys.includes('steps')) return readSightlineFlow(context, resolved);
  if (isMidsceneTestShape(keys)) {
    nodes.problem(resolved, MIDSCENE_TEST_REFUSAL);
    return undefined;
  }
  if (isBatchIndexShape(keys)) {
    // Reached from use:, another index's files:, or a worker's job: an index is run by naming it on the command line.
    nodes.problem(resolved, 'is a Midscene batch index (files:); run it by naming it on the command line: use: and an index\'s files: take scripts and flows');
    return undefined;
  }
  if (keys.includes('flow') && keys.some((key) => MIDSCENE_HINT_KEYS.includes(key))) {
    nodes.problem(resolved, "looks like Midscene's oldest script form (a top-level flow:); put it under tasks: [{ name: …, flow: … }]");
    return undefined;
  }
  if (keys.some((key) => MIDSCENE_HINT_KEYS.includes(key) && key !== 'target')) {
    nodes.problem(resolved, 'a Midscene script needs tasks: a list of { name, flow }');
    return undefined;
  }
  return readSightlineFlow(context, resolved);
}
