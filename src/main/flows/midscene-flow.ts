/**
 * Midscene's YAML scripts (https://midscenejs.com/automate-with-scripts-in-yaml, web-infra-dev/midscene
 * packages/core/src/yaml), read into the same Flow model: the `web:` target (and its older names `target:`,
 * `page:`, `browser:`) becomes the browser operator, `computer:` the desktop one; each task becomes a `group`
 * step, and each flow item the step that does the same in Sightline, its Midscene name kept as the label.
 * Instant actions (aiTap, aiInput…) become `do` steps worded in plain English, since Sightline's model acts
 * from a description rather than a located element; aiLocate asks the model to box the element and answers its
 * rect and center in page coordinates. What Sightline cannot do (phone targets and commands) is refused by name and
 * line before the run; options that only tune Midscene's own locator, cache or report are
 * ignored (docs/flows.md lists both).
 *
 * As in Midscene, `${NAME}` anywhere in a string is the environment variable NAME, read at load time.
 */
import { dirname } from 'node:path';
import { isMap, isScalar, isSeq, type Node, type Scalar, type YAMLMap } from 'yaml';
import { closestName } from '../../shared/suggestions.js';
import { readDuration } from '../../shared/durations.js';
import type { FlowStep, FlowTarget, JsonSchema } from './flow-model.js';
import { listed, type Entry } from './flow-nodes.js';
import { defaultFlowName, type FlowReadContext, type LoadedFlow } from './flow-read-context.js';
import { readQueryShape } from './midscene-query-shape.js';
import { DEFAULT_WAIT_FOR_TIMEOUT_MS } from './sightline-flow.js';
import { escapeTemplateText, excerpt } from './templates.js';
import { CONTEXT_KEYS, IGNORED_WEB_KEYS, insidePath, readWebTarget, REFUSED_WEB_KEYS } from './midscene-web-target.js';

const BROWSER_TARGETS = ['web', 'target', 'page', 'browser'];
const PHONE_TARGETS: Record<string, string> = {
  android: 'an Android device',
  ios: 'an iOS device',
  harmony: 'a HarmonyOS device',
  interface: 'a custom device interface',
};
const TOP_KEYS = [...BROWSER_TARGETS, 'computer', ...Object.keys(PHONE_TARGETS), 'agent', 'config', 'tasks'];

const IGNORED_AGENT_KEYS = ['testId', 'groupName', 'groupDescription', 'generateReport', 'autoPrintReportMsg', 'reportFileName', 'cache', 'replanningCycleLimit', 'outputFormat'];
/** Midscene's computer target options (@midscene/computer 1.18, agentForComputer): Sightline's configuration owns them. */
const IGNORED_COMPUTER_KEYS: Record<string, string> = {
  displayId: "Sightline acts on the display its configuration names (perception.displayId)",
  headless: 'Sightline acts on the display it is given; run it under xvfb-run for a virtual one',
};
const IGNORED_CONFIG_KEYS = ['output', 'unstableLogContent', 'continuousScreenshot'];
const TASK_KEYS = ['name', 'flow', 'continueOnError'];

/** Options that tune how Midscene locates, plans, caches or reports: the step means the same without them. */
const IGNORED_OPTION_REASONS: Record<string, string> = {
  deepThink: "it tunes Midscene's locator; Sightline's model looks at the whole screen each time",
  deepLocate: "it tunes Midscene's locator; Sightline's model looks at the whole screen each time",
  cacheable: "it tunes Midscene's cache; Sightline's --replay repeats passing runs",
  xpath: 'Sightline acts on what the screen shows, not on the DOM',
  domIncluded: 'Sightline reads the screen, not the DOM',
  screenshotIncluded: 'Sightline always reads the screen',
  useDom: 'Sightline reads the screen, not the DOM',
  autoDismissKeyboard: 'it is a phone keyboard setting',
  checkIntervalMs: 'Sightline watches the screen for the condition at its own pace',
  errorMessage: "Sightline's failure says what the model saw",
  aiActionProgressTip: "it shapes Midscene's progress output",
  aiActionProgressTips: "it shapes Midscene's progress output",
  planningStrategy: "it picks Midscene's planner; Sightline's model plans each step itself",
  context: "a per-call context; put it into the prompt's words",
  uiContext: "it is Midscene's own captured page state",
};
const IGNORED_OPTIONS = Object.keys(IGNORED_OPTION_REASONS);

const LOCATE_VERBS: Record<string, string> = {
  aiTap: 'Click',
  aiRightClick: 'Right-click',
  aiDoubleClick: 'Double-click',
  aiHover: 'Move the mouse over',
};
const EXTRACT_SCHEMAS: Record<string, JsonSchema> = {
  aiNumber: { type: 'number' },
  aiBoolean: { type: 'boolean' },
  aiString: { type: 'string' },
  aiAsk: { type: 'string' },
};
/** Each readable action and the options it uses (besides the ignored ones). */
const ACTIONS: Record<string, string[]> = {
  ai: [],
  aiAct: [],
  aiAction: [],
  ...Object.fromEntries(Object.keys(LOCATE_VERBS).map((action) => [action, ['prompt', 'locate', 'fileChooserAccept']])),
  aiInput: ['value', 'locate', 'mode'],
  javascript: ['name'],
  recordToReport: ['content'],
  logScreenshot: ['content'],
  aiClearInput: ['locate'],
  aiDragAndDrop: ['from', 'to'],
  aiKeyboardPress: ['keyName', 'locate'],
  aiScroll: ['direction', 'scrollType', 'distance', 'locate'],
  aiAssert: ['name'],
  aiWaitFor: ['timeout'],
  aiQuery: ['name'],
  aiLocate: ['name'],
  ...Object.fromEntries(Object.keys(EXTRACT_SCHEMAS).map((action) => [action, ['name']])),
  sleep: [],
};
const REFUSED_ACTIONS: Record<string, string> = {
  runAdbShell: 'it runs commands on an Android device',
  runWdaRequest: "it calls an iOS device's WebDriverAgent",
  launch: 'it starts an app on a phone',
  // Midscene's player passes `terminate: <package>` to the phone's Terminate action (force-stop an app), paired
  // with launch; it does not end the script early.
  terminate: "it force-stops an app on a phone (Midscene's Terminate action, by package name); it does not end the script, so remove it",
  aiLongPress: 'it is a touch gesture for phones',
  aiSwipe: 'it is a touch gesture for phones',
};
const SCROLL_DIRECTIONS = ['down', 'up', 'left', 'right'];
const SCROLL_TYPES: Record<string, string> = {
  singleAction: 'once',
  once: 'once',
  scrollToBottom: 'bottom',
  untilBottom: 'bottom',
  scrollToTop: 'top',
  untilTop: 'top',
  scrollToRight: 'right',
  untilRight: 'right',
  scrollToLeft: 'left',
  untilLeft: 'left',
};
const INPUT_MODES = ['replace', 'clear', 'append', 'typeOnly'];

export function readMidsceneFlow(context: FlowReadContext, root: YAMLMap): LoadedFlow | undefined {
  const { nodes } = context;
  const entries = nodes.entries(root);
  nodes.unknownKeys(entries, TOP_KEYS, 'at the top of a Midscene script');
  const entry = (key: string) => entries.find((candidate) => candidate.key === key);
  const read: MidsceneRead = { context, notes: [], modelContext: undefined };

  const targets = entries.filter((candidate) => [...BROWSER_TARGETS, 'computer', ...Object.keys(PHONE_TARGETS)].includes(candidate.key));
  let target: FlowTarget | undefined;
  if (targets.length === 0) nodes.problem(root, `a Midscene script needs a target: ${listed([...BROWSER_TARGETS.slice(0, 1), 'computer'])}`);
  if (targets.length > 1) nodes.problem(targets[1]?.keyNode, `a Midscene script has one target; this one has ${listed(targets.map((found) => found.key), 'and')}`);
  const targetEntry = targets[0];
  if (targetEntry !== undefined && targets.length === 1) target = readTarget(read, targetEntry);
  if (targetEntry?.key === 'computer') read.operator = 'desktop';

  const agent = entry('agent');
  if (agent !== undefined) readSettingsSection(read, agent, IGNORED_AGENT_KEYS);
  const config = entry('config');
  if (config !== undefined) readSettingsSection(read, config, IGNORED_CONFIG_KEYS);

  const steps: FlowStep[] = [];
  const tasksEntry = entry('tasks');
  const tasks = tasksEntry === undefined ? undefined : nodes.readList(tasksEntry.value, 'tasks', tasksEntry.keyNode);
  if (tasks !== undefined && tasks.items.length === 0) nodes.problem(tasks, 'tasks: expected at least one task');
  for (const item of tasks?.items ?? []) {
    const step = readTask(read, nodes.resolve(item) ?? (item as Node));
    if (step !== undefined) steps.push(step);
  }
  const flow: LoadedFlow['flow'] = { name: defaultFlowName(nodes.source.file), file: nodes.source.file, format: 'midscene', target, vars: {}, secrets: [], steps };
  if (read.modelContext !== undefined) flow.context = read.modelContext;
  if (read.notes.length > 0) flow.notes = read.notes;
  return { flow, params: [], inputs: [] };
}

/** What reading one script gathers besides its steps: the notes of what it ignored, and the model's context. */
interface MidsceneRead {
  context: FlowReadContext;
  /** The target's operator, once read: a desktop script has no page to run javascript: in. */
  operator?: FlowTarget['operator'];
  notes: string[];
  modelContext: string | undefined;
}

/** A one-line note that an item or option was read and ignored, with why, for the run to say before it starts. */
function ignore(read: MidsceneRead, at: Node, what: string, why: string): void {
  read.notes.push(`${what} (line ${read.context.nodes.at(at).line}) is ignored: ${why}`);
}

function readTarget(read: MidsceneRead, entry: Entry): FlowTarget | undefined {
  const { context } = read;
  const { nodes } = context;
  const phone = PHONE_TARGETS[entry.key];
  if (phone !== undefined) {
    nodes.problem(entry.keyNode, `${entry.key}: Sightline drives a browser (web:) or this computer's desktop (computer:), not ${phone}`);
    return undefined;
  }
  const map = nodes.readMap(entry.value, entry.key, entry.keyNode);
  if (map === undefined) return undefined;
  const at = nodes.at(map);
  const fields = nodes.entries(map);
  if (entry.key === 'computer') {
    for (const field of fields) {
      const ignored = IGNORED_WEB_KEYS[field.key] ?? IGNORED_COMPUTER_KEYS[field.key];
      if (ignored !== undefined) ignore(read, field.keyNode, `computer ${field.key}`, ignored);
      else if (CONTEXT_KEYS.includes(field.key)) read.modelContext = nodes.readString(field.value, field.key, field.keyNode)?.value ?? read.modelContext;
      else nodes.problem(field.keyNode, `computer ${excerpt(field.key)}: Sightline's desktop operator takes no such setting from the script (it reads ${listed(CONTEXT_KEYS)} and ignores ${listed(Object.keys(IGNORED_COMPUTER_KEYS))}); remove it`);
    }
    return { operator: 'desktop', at };
  }
  const reading = readWebTarget(context, entry, fields, at, read.notes, (scalar) => midsceneText(context, scalar));
  if (reading.context !== undefined) read.modelContext = reading.context;
  return reading.target;
}

/** `agent:` and `config:`: the model's context is read, what only tunes Midscene's reports and caches is ignored. */
function readSettingsSection(read: MidsceneRead, entry: Entry, ignored: readonly string[]): void {
  const { nodes } = read.context;
  const map = nodes.readMap(entry.value, entry.key, entry.keyNode);
  if (map === undefined) return;
  for (const field of nodes.entries(map)) {
    if (ignored.includes(field.key)) {
      ignore(read, field.keyNode, `${entry.key} ${field.key}`, "it tunes Midscene's own reports, caches or planning");
      continue;
    }
    if (CONTEXT_KEYS.includes(field.key)) {
      const scalar = nodes.readString(field.value, field.key, field.keyNode);
      if (scalar !== undefined) read.modelContext = scalar.value;
      continue;
    }
    const reason = REFUSED_WEB_KEYS[field.key];
    if (reason !== undefined) nodes.problem(field.keyNode, `${entry.key} ${field.key} cannot be applied: ${reason}`);
    else nodes.problem(field.keyNode, `unknown key ${excerpt(field.key)} in ${entry.key} (Sightline reads ${listed(CONTEXT_KEYS)} and ignores ${listed(ignored)} there)`);
  }
}

function readTask(read: MidsceneRead, node: Node): FlowStep | undefined {
  const { nodes } = read.context;
  if (!isMap(node)) {
    nodes.problem(node, `expected a task (a map with name: and flow:), got ${nodes.describe(node)}`);
    return undefined;
  }
  const entries = nodes.entries(node);
  nodes.unknownKeys(entries, TASK_KEYS, 'in a task');
  const entry = (key: string) => entries.find((candidate) => candidate.key === key);
  const nameEntry = entry('name');
  const name = nameEntry === undefined ? undefined : nodes.readString(nameEntry.value, 'task name', nameEntry.keyNode)?.value;
  if (nameEntry === undefined) nodes.problem(node, 'a task needs name:');
  const continueEntry = entry('continueOnError');
  const continueOnError = continueEntry === undefined ? false : nodes.readBoolean(continueEntry.value, 'continueOnError', continueEntry.keyNode) ?? false;
  const flowEntry = entry('flow');
  if (flowEntry === undefined) nodes.problem(node, 'a task needs flow: a list of steps');
  const list = flowEntry === undefined ? undefined : nodes.readList(flowEntry.value, 'flow', flowEntry.keyNode);
  const steps: FlowStep[] = [];
  for (const item of list?.items ?? []) {
    const step = readFlowItem(read, nodes.resolve(item) ?? (item as Node));
    if (step !== undefined) steps.push(step);
  }
  if (name === undefined || list === undefined) return undefined;
  return { at: nodes.at(node), label: name, continueOnError, kind: 'group', name, steps };
}

function readFlowItem(read: MidsceneRead, node: Node): FlowStep | undefined {
  const { context } = read;
  const { nodes } = context;
  if (!isMap(node)) {
    nodes.problem(node, `expected a flow item (a map such as - aiTap: the login button), got ${nodes.describe(node)}`);
    return undefined;
  }
  const entries = nodes.entries(node);
  const actions = entries.filter((entry) => Object.hasOwn(ACTIONS, entry.key) || Object.hasOwn(REFUSED_ACTIONS, entry.key));
  const action = actions[0];
  if (action === undefined) {
    const first = entries[0];
    const suggestion = first === undefined ? undefined : closestName(first.key, [...Object.keys(ACTIONS), ...Object.keys(REFUSED_ACTIONS)]);
    nodes.problem(first?.keyNode ?? node, `unknown Midscene flow item${first === undefined ? '' : ` ${excerpt(first.key)}`}${suggestion === undefined ? '' : `; did you mean ${suggestion}?`} (Sightline reads ${listed(Object.keys(ACTIONS))})`);
    return undefined;
  }
  if (actions.length > 1) {
    nodes.problem(actions[1]?.keyNode, `a flow item has one action; this one has ${listed(actions.map((found) => found.key), 'and')}`);
    return undefined;
  }
  const refused = REFUSED_ACTIONS[action.key];
  if (refused !== undefined) {
    nodes.problem(action.keyNode, `${action.key} cannot run in Sightline: ${refused}`);
    return undefined;
  }
  const used = ACTIONS[action.key] ?? [];
  nodes.unknownKeys(
    entries.filter((entry) => entry !== action),
    [...used, ...IGNORED_OPTIONS],
    `for ${action.key}`,
  );
  for (const entry of entries) if (entry !== action && Object.hasOwn(IGNORED_OPTION_REASONS, entry.key)) ignore(read, entry.keyNode, `${action.key} ${entry.key}`, IGNORED_OPTION_REASONS[entry.key] ?? '');
  const option = (key: string) => entries.find((entry) => entry.key === key && entry !== action);
  const base = { at: nodes.at(node), label: action.key, continueOnError: false };
  const label = action.key;

  if (label === 'ai' || label === 'aiAct' || label === 'aiAction') {
    const text = prompt(read, action.value, label, action.keyNode);
    return text === undefined ? undefined : { ...base, kind: 'do', text };
  }
  const verb = LOCATE_VERBS[label];
  if (verb !== undefined) {
    const target = prompt(read, option('locate')?.value ?? option('prompt')?.value ?? action.value, label, action.keyNode);
    const accept = option('fileChooserAccept');
    const files = accept === undefined ? undefined : acceptedFiles(read, accept);
    if (target === undefined || (accept !== undefined && files === undefined)) return undefined;
    return { ...base, kind: 'do', text: `${verb} ${target}`, ...(files === undefined ? {} : { files }) };
  }
  switch (label) {
    case 'javascript': {
      if (read.operator === 'desktop') {
        nodes.problem(action.keyNode, "javascript cannot run on a computer: target: it runs in a browser page, and on the desktop Sightline acts only through the screen; use web:");
        return undefined;
      }
      const code = nodes.readString(action.value, 'javascript', action.keyNode);
      const nameEntry = option('name');
      const as = nameEntry === undefined ? undefined : nodes.readString(nameEntry.value, 'name', nameEntry.keyNode)?.value;
      if (code === undefined || (nameEntry !== undefined && as === undefined)) return undefined;
      return { ...base, kind: 'javascript', code: midsceneText(context, code), as };
    }
    case 'recordToReport':
    case 'logScreenshot': {
      // Midscene's player: the title is the item's value ('untitled' when empty), `content` an optional note.
      const empty = action.value === undefined || action.value === null || (isScalar(action.value) && (action.value.value === null || action.value.value === ''));
      const title = empty ? 'untitled' : prompt(read, action.value, label, action.keyNode);
      const contentEntry = option('content');
      const content = contentEntry === undefined ? '' : nodes.readString(contentEntry.value, 'content', contentEntry.keyNode, { allowEmpty: true });
      if (title === undefined || content === undefined) return undefined;
      return { ...base, kind: 'note', title, content: typeof content === 'string' ? content : midsceneText(context, content) };
    }
    case 'aiClearInput': {
      const target = prompt(read, option('locate')?.value ?? action.value, label, action.keyNode);
      return withText(base, target === undefined ? undefined : `Clear ${target}`);
    }
    case 'aiDragAndDrop':
      return withText(base, dragText(read, action, option('from'), option('to')));
    case 'aiInput':
      return withText(base, inputText(read, action, option('locate'), option('value'), option('mode')));
    case 'aiKeyboardPress':
      return withText(base, keyText(read, action, option('locate'), option('keyName')));
    case 'aiScroll':
      return withText(base, scrollText(read, action, option('locate'), option('direction'), option('scrollType'), option('distance')));
    case 'aiLocate': {
      // Midscene's player: agent.aiLocate(prompt, item), the result ({ rect, center, dpr }) kept under `name`.
      const text = prompt(read, action.value, label, action.keyNode);
      const nameEntry = option('name');
      const as = nameEntry === undefined ? undefined : nodes.readString(nameEntry.value, 'name', nameEntry.keyNode)?.value;
      if (text === undefined || (nameEntry !== undefined && as === undefined)) return undefined;
      return { ...base, kind: 'locate', text, as };
    }
    case 'aiAssert': {
      const text = prompt(read, action.value, label, action.keyNode);
      return text === undefined ? undefined : { ...base, kind: 'assert', text };
    }
    case 'aiWaitFor': {
      const text = prompt(read, action.value, label, action.keyNode);
      const timeout = option('timeout');
      let timeoutMs: number | undefined = DEFAULT_WAIT_FOR_TIMEOUT_MS;
      if (timeout !== undefined) {
        const reading = readDuration(isScalar(timeout.value) ? timeout.value.value : undefined, { allowZero: false });
        if (reading.ok) timeoutMs = reading.ms;
        else nodes.problem(timeout.value ?? timeout.keyNode, `timeout: ${reading.problem}, got ${nodes.describe(timeout.value)}`);
        if (!reading.ok) timeoutMs = undefined;
      }
      return text === undefined || timeoutMs === undefined ? undefined : { ...base, kind: 'wait_for', text, timeoutMs };
    }
    case 'sleep': {
      const value = isScalar(action.value) ? action.value.value : undefined;
      // Midscene reads a string with parseInt; a number of milliseconds is what its scripts hold.
      const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
      const reading = readDuration(ms, { allowZero: false });
      if (!reading.ok) {
        nodes.problem(action.value ?? action.keyNode, `sleep: expected a number of milliseconds above 0, got ${nodes.describe(action.value)}`);
        return undefined;
      }
      return { ...base, kind: 'sleep', ms: reading.ms };
    }
    default: {
      // aiQuery, aiNumber, aiBoolean, aiString, aiAsk: an extract, its `name` the output's key.
      const text = prompt(read, action.value, label, action.keyNode);
      const nameEntry = option('name');
      const as = nameEntry === undefined ? undefined : nodes.readString(nameEntry.value, 'name', nameEntry.keyNode)?.value;
      if (text === undefined || (nameEntry !== undefined && as === undefined)) return undefined;
      if (label !== 'aiQuery') return { ...base, kind: 'extract', text, as, schema: { ...EXTRACT_SCHEMAS[label] } };
      const shape = readQueryShape(text);
      if (shape === undefined) return { ...base, kind: 'extract', text, as, schema: {} };
      return { ...base, kind: 'extract', text: shape.request === '' ? text : shape.request, as, schema: shape.schema };
    }
  }
}

function withText(base: Pick<FlowStep, 'at' | 'label' | 'continueOnError'>, text: string | undefined): FlowStep | undefined {
  return text === undefined ? undefined : { ...base, kind: 'do', text };
}

/**
 * A prompt: a string, or Midscene's `{ prompt, images }` form (without images, which Sightline cannot pass on),
 * which may also carry locate options (deepThink, cacheable, xpath…: ignored with a note), and, in the legacy
 * nested form `aiTap: { locate: { prompt } }`, a `locate:` holding the prompt itself.
 */
function prompt(read: MidsceneRead, node: Node | undefined, what: string, at: Node, options: { optional?: boolean } = {}): string | undefined {
  const { context } = read;
  const { nodes } = context;
  if (node === undefined && options.optional === true) return undefined;
  if (isMap(node)) {
    const entries = nodes.entries(node);
    const nested = entries.find((entry) => entry.key === 'locate');
    nodes.unknownKeys(entries, ['prompt', 'images', 'convertHttpImage2Base64', 'locate', ...IGNORED_OPTIONS], `in ${what}'s prompt`);
    for (const entry of entries) if (Object.hasOwn(IGNORED_OPTION_REASONS, entry.key)) ignore(read, entry.keyNode, `${what} ${entry.key}`, IGNORED_OPTION_REASONS[entry.key] ?? '');
    const images = entries.find((entry) => entry.key === 'images');
    if (images !== undefined) nodes.problem(images.keyNode, `${what} images: prompting with images is not supported; describe the element in words`);
    const text = entries.find((entry) => entry.key === 'prompt');
    if (text === undefined && nested !== undefined) return images === undefined ? prompt(read, nested.value, what, nested.keyNode) : undefined;
    if (text === undefined) {
      nodes.problem(node, `${what}: expected prompt: the text of the prompt`);
      return undefined;
    }
    const scalar = nodes.readString(text.value, `${what} prompt`, text.keyNode);
    return scalar === undefined || images !== undefined ? undefined : midsceneText(context, scalar);
  }
  const scalar = nodes.readString(node, what, at);
  return scalar === undefined ? undefined : midsceneText(context, scalar);
}

function inputText(read: MidsceneRead, action: Entry, locate: Entry | undefined, valueEntry: Entry | undefined, modeEntry: Entry | undefined): string | undefined {
  const { context } = read;
  const { nodes } = context;
  // Midscene's two forms: { aiInput: <value>, locate: <prompt> } (older) and { aiInput: <prompt>, value: <value> }.
  const valueNode = locate !== undefined ? (action.value ?? valueEntry?.value) : valueEntry?.value;
  const targetNode = locate !== undefined ? locate.value : action.value;
  const target = targetNode === undefined ? 'the focused field' : prompt(read, targetNode, 'aiInput', action.keyNode);
  let value: string | undefined = '';
  if (valueNode !== undefined) {
    if (isScalar(valueNode) && (typeof valueNode.value === 'number' || typeof valueNode.value === 'boolean')) value = escapeTemplateText(String(valueNode.value));
    else {
      const scalar = nodes.readString(valueNode, 'aiInput value', action.keyNode, { allowEmpty: true });
      value = scalar === undefined ? undefined : midsceneText(context, scalar);
    }
  }
  let mode = 'replace';
  if (modeEntry !== undefined) {
    const scalar = nodes.readString(modeEntry.value, 'mode', modeEntry.keyNode);
    if (scalar !== undefined && INPUT_MODES.includes(scalar.value)) mode = scalar.value;
    else if (scalar !== undefined) nodes.problem(scalar, `mode: expected ${listed(INPUT_MODES)}, got ${nodes.describe(scalar)}`);
  }
  if (target === undefined || value === undefined) return undefined;
  if (mode === 'clear' || value === '') return `Clear ${target}`;
  if (mode === 'replace') return `Type ${JSON.stringify(value)} into ${target}, replacing any text already there`;
  return `Type ${JSON.stringify(value)} into ${target}${mode === 'append' ? ', after the text already there' : ''}`;
}

/** fileChooserAccept: one path or a list, each a file inside the script's folder. */
function acceptedFiles(read: MidsceneRead, entry: Entry): string[] | undefined {
  const { nodes } = read.context;
  const folder = dirname(nodes.source.file);
  const items = isSeq(entry.value) ? entry.value.items.map((item) => nodes.resolve(item)) : [entry.value];
  if (items.length === 0) {
    nodes.problem(entry.keyNode, 'fileChooserAccept: expected a file, or a list of files, inside the script\'s folder');
    return undefined;
  }
  const files: string[] = [];
  for (const item of items) {
    const path = insidePath(read.context, { key: 'fileChooserAccept', keyNode: entry.keyNode, value: item }, folder, 'file');
    if (path === undefined) return undefined;
    files.push(path);
  }
  return files;
}

/** Midscene's aiDragAndDrop: `{ from, to }` under the item, or the source as its value and `to:` beside it. */
function dragText(read: MidsceneRead, action: Entry, fromEntry: Entry | undefined, toEntry: Entry | undefined): string | undefined {
  const { nodes } = read.context;
  let fromNode = fromEntry?.value;
  let toNode = toEntry?.value;
  if (isMap(action.value)) {
    const inner = nodes.entries(action.value);
    const innerFrom = inner.find((entry) => entry.key === 'from');
    const innerTo = inner.find((entry) => entry.key === 'to');
    if (innerFrom !== undefined || innerTo !== undefined) {
      nodes.unknownKeys(inner, ['from', 'to'], 'in aiDragAndDrop');
      fromNode = innerFrom?.value;
      toNode = innerTo?.value;
    } else fromNode ??= action.value;
  } else fromNode ??= action.value;
  if (fromNode === undefined || toNode === undefined) {
    nodes.problem(action.keyNode, 'aiDragAndDrop: expected what to drag (from:, or the value) and where to drop it (to:)');
    return undefined;
  }
  const from = prompt(read, fromNode, 'aiDragAndDrop from', action.keyNode);
  const to = prompt(read, toNode, 'aiDragAndDrop to', action.keyNode);
  return from === undefined || to === undefined ? undefined : `Drag ${from} and drop it onto ${to}`;
}

function keyText(read: MidsceneRead, action: Entry, locate: Entry | undefined, keyName: Entry | undefined): string | undefined {
  // Older form { aiKeyboardPress: <key>, locate?: <prompt> }; newer { aiKeyboardPress: <prompt>, keyName: <key> }.
  const keyNode = keyName === undefined ? action.value : keyName.value;
  const targetNode = keyName === undefined ? locate?.value : (locate?.value ?? action.value);
  const key = prompt(read, keyNode, 'aiKeyboardPress key', action.keyNode);
  const target = prompt(read, targetNode, 'aiKeyboardPress', action.keyNode, { optional: true });
  if (key === undefined || (targetNode !== undefined && target === undefined)) return undefined;
  return `Press the ${key} key${target === undefined ? '' : ` in ${target}`}`;
}

function scrollText(
  read: MidsceneRead,
  action: Entry,
  locate: Entry | undefined,
  directionEntry: Entry | undefined,
  typeEntry: Entry | undefined,
  distanceEntry: Entry | undefined,
): string | undefined {
  const { nodes } = read.context;
  const targetNode = locate?.value ?? action.value;
  const target = prompt(read, targetNode, 'aiScroll', action.keyNode, { optional: true });
  const choice = (entry: Entry | undefined, what: string, allowed: readonly string[], fallback: string): string | undefined => {
    if (entry === undefined) return fallback;
    const scalar = nodes.readString(entry.value, what, entry.keyNode);
    if (scalar !== undefined && allowed.includes(scalar.value)) return scalar.value;
    if (scalar !== undefined) nodes.problem(scalar, `${what}: expected ${listed(allowed)}, got ${nodes.describe(scalar)}`);
    return undefined;
  };
  const direction = choice(directionEntry, 'direction', SCROLL_DIRECTIONS, 'down');
  const scrollType = choice(typeEntry, 'scrollType', Object.keys(SCROLL_TYPES), 'singleAction');
  let distance: number | undefined;
  let distanceOk = true;
  const distanceNode = distanceEntry?.value;
  // `distance: null` is Midscene's "let the model decide", the same as no distance.
  if (distanceNode !== undefined && !(isScalar(distanceNode) && distanceNode.value === null)) {
    const value = isScalar(distanceNode) ? distanceNode.value : undefined;
    if (typeof value === 'number' && value > 0) distance = value;
    else {
      distanceOk = false;
      nodes.problem(distanceNode, `distance: expected a number of pixels above 0, got ${nodes.describe(distanceNode)}`);
    }
  }
  if ((targetNode !== undefined && target === undefined) || direction === undefined || scrollType === undefined || !distanceOk) return undefined;
  const where = SCROLL_TYPES[scrollType] ?? 'once';
  if (where === 'once') return `Scroll ${direction}${distance === undefined ? '' : ` by ${distance} pixels`}${target === undefined ? '' : ` in ${target}`}`;
  const end = where === 'bottom' || where === 'top' ? `the ${where}` : `the ${where} end`;
  return `Scroll to ${end} of ${target ?? 'the page'}`;
}

/**
 * A Midscene string as Sightline template text: `${NAME}` is the environment variable NAME (Midscene reads
 * the environment into the whole file), and anything else that looks like `${` stays literal.
 */
export function midsceneText(context: FlowReadContext, scalar: Scalar<string>): string {
  const { nodes } = context;
  const text = scalar.value;
  let result = '';
  let index = 0;
  while (index < text.length) {
    const start = text.indexOf('${', index);
    if (start === -1) {
      result += escapeTemplateText(text.slice(index));
      break;
    }
    result += escapeTemplateText(text.slice(index, start));
    const close = text.indexOf('}', start + 2);
    const name = close === -1 ? '' : text.slice(start + 2, close).trim();
    if (name === '') {
      result += '$${';
      index = start + 2;
      continue;
    }
    const value = context.env[name];
    if (value === undefined) nodes.source.problemAt(nodes.source.atOffset(nodes.offsetIn(scalar, start)), `environment variable ${excerpt(name)} is not set (${excerpt(text.slice(start, close + 1))})`);
    else result += escapeTemplateText(value);
    index = close + 1;
  }
  return result;
}
