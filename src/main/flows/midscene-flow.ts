/**
 * Midscene's YAML scripts (https://midscenejs.com/automate-with-scripts-in-yaml, web-infra-dev/midscene
 * packages/core/src/yaml), read into the same Flow model: the `web:` target (and its older names `target:`,
 * `page:`, `browser:`) becomes the browser operator, `computer:` the desktop one; each task becomes a `group`
 * step, and each flow item the step that does the same in Sightline, its Midscene name kept as the label.
 * Instant actions (aiTap, aiInput…) become `do` steps worded in plain English, since Sightline's model acts
 * from a description rather than a located element. What Sightline cannot do (JavaScript in the page, phone
 * targets and commands, element coordinates, report-only items, settings that change the page) is refused
 * by name and line before the run; options that only tune Midscene's own locator, cache or report are
 * ignored (docs/flows.md lists both).
 *
 * As in Midscene, `${NAME}` anywhere in a string is the environment variable NAME, read at load time.
 */
import { isMap, isScalar, type Node, type Scalar, type YAMLMap } from 'yaml';
import { closestName } from '../../shared/suggestions.js';
import { readDuration } from '../../shared/durations.js';
import type { FlowStep, FlowTarget, JsonSchema } from './flow-model.js';
import { listed, type Entry } from './flow-nodes.js';
import { defaultFlowName, type FlowReadContext, type LoadedFlow } from './flow-read-context.js';
import { readQueryShape } from './midscene-query-shape.js';
import { DEFAULT_WAIT_FOR_TIMEOUT_MS } from './sightline-flow.js';
import { escapeTemplateText, excerpt } from './templates.js';

const BROWSER_TARGETS = ['web', 'target', 'page', 'browser'];
const PHONE_TARGETS: Record<string, string> = {
  android: 'an Android device',
  ios: 'an iOS device',
  harmony: 'a HarmonyOS device',
  interface: 'a custom device interface',
};
const TOP_KEYS = [...BROWSER_TARGETS, 'computer', ...Object.keys(PHONE_TARGETS), 'agent', 'config', 'tasks'];

/** Fields that only shape Midscene's own output files, reports or caches: nothing Sightline runs depends on them. */
const IGNORED_TARGET_KEYS = ['output', 'unstableLogContent', 'waitForNetworkIdle'];
/**
 * Midscene's bridge mode drives the person's desktop Chrome through its extension
 * (https://midscenejs.com/bridge-mode); Sightline reaches the same browser over CDP instead (`--cdp URL`):
 * newTabWithUrl opens the url in a new tab, currentTab acts in the tab in front and, as Midscene does, opens no url.
 * Sightline always closes the tabs it opened, so closeNewTabsAfterDisconnect changes nothing.
 */
const BRIDGE_MODES: Record<string, 'new' | 'current'> = { newTabWithUrl: 'new', currentTab: 'current' };
const BRIDGE_IGNORED_KEYS = ['closeNewTabsAfterDisconnect'];
const REFUSED_TARGET_KEYS: Record<string, string> = {
  viewportWidth: "Sightline's browser keeps the size it is configured with",
  viewportHeight: "Sightline's browser keeps the size it is configured with",
  viewportScale: "Sightline's browser keeps the size it is configured with",
  deviceScaleFactor: "Sightline's browser keeps the size it is configured with",
  userAgent: "Sightline's browser keeps its own user agent",
  cookie: 'Sightline does not load cookie files into its browser',
  serve: 'Sightline does not serve local folders; start a server and give its URL',
  chromeArgs: "Sightline's browser starts with its own arguments",
  acceptInsecureCerts: "Sightline's browser keeps its certificate checks",
  forceSameTabNavigation: 'Sightline follows the page wherever it goes',
  aiActionContext: 'Sightline has no per-script context for the model; put what it must know into the steps',
  aiActContext: 'Sightline has no per-script context for the model; put what it must know into the steps',
};
const IGNORED_AGENT_KEYS = ['testId', 'groupName', 'groupDescription', 'generateReport', 'autoPrintReportMsg', 'reportFileName', 'cache', 'replanningCycleLimit', 'outputFormat'];
const IGNORED_CONFIG_KEYS = ['output', 'unstableLogContent', 'continuousScreenshot'];
const TASK_KEYS = ['name', 'flow', 'continueOnError'];

/** Options that tune how Midscene locates, caches or reports: the step means the same without them. */
const IGNORED_OPTIONS = ['deepThink', 'deepLocate', 'cacheable', 'xpath', 'domIncluded', 'screenshotIncluded', 'useDom', 'autoDismissKeyboard', 'checkIntervalMs', 'errorMessage', 'aiActionProgressTip'];

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
  ...Object.fromEntries(Object.keys(LOCATE_VERBS).map((action) => [action, ['prompt', 'locate']])),
  aiInput: ['value', 'locate', 'mode'],
  aiKeyboardPress: ['keyName', 'locate'],
  aiScroll: ['direction', 'scrollType', 'distance', 'locate'],
  aiAssert: ['name'],
  aiWaitFor: ['timeout'],
  aiQuery: ['name'],
  ...Object.fromEntries(Object.keys(EXTRACT_SCHEMAS).map((action) => [action, ['name']])),
  sleep: [],
};
const REFUSED_ACTIONS: Record<string, string> = {
  javascript: 'it runs JavaScript in the page, and Sightline acts only through the screen, as a person would',
  runAdbShell: 'it runs commands on an Android device',
  runWdaRequest: "it calls an iOS device's WebDriverAgent",
  launch: 'it starts an app on a phone',
  aiLocate: "it returns an element's coordinates, and Sightline's steps say what to do rather than where",
  logScreenshot: "it writes into Midscene's report; Sightline records every screen in the session's timeline, so remove it",
  recordToReport: "it writes into Midscene's report; Sightline records every screen in the session's timeline, so remove it",
  aiDragAndDrop: 'drag and drop is not among what Sightline reads from Midscene scripts; describe it in an ai: step',
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

  const targets = entries.filter((candidate) => [...BROWSER_TARGETS, 'computer', ...Object.keys(PHONE_TARGETS)].includes(candidate.key));
  let target: FlowTarget | undefined;
  if (targets.length === 0) nodes.problem(root, `a Midscene script needs a target: ${listed([...BROWSER_TARGETS.slice(0, 1), 'computer'])}`);
  if (targets.length > 1) nodes.problem(targets[1]?.keyNode, `a Midscene script has one target; this one has ${listed(targets.map((found) => found.key), 'and')}`);
  const targetEntry = targets[0];
  if (targetEntry !== undefined && targets.length === 1) target = readTarget(context, targetEntry);

  const agent = entry('agent');
  if (agent !== undefined) readIgnoredSection(context, agent, IGNORED_AGENT_KEYS);
  const config = entry('config');
  if (config !== undefined) readIgnoredSection(context, config, IGNORED_CONFIG_KEYS);

  const steps: FlowStep[] = [];
  const tasksEntry = entry('tasks');
  const tasks = tasksEntry === undefined ? undefined : nodes.readList(tasksEntry.value, 'tasks', tasksEntry.keyNode);
  if (tasks !== undefined && tasks.items.length === 0) nodes.problem(tasks, 'tasks: expected at least one task');
  for (const item of tasks?.items ?? []) {
    const step = readTask(context, nodes.resolve(item) ?? (item as Node));
    if (step !== undefined) steps.push(step);
  }
  return { flow: { name: defaultFlowName(nodes.source.file), file: nodes.source.file, format: 'midscene', target, vars: {}, secrets: [], steps }, params: [], inputs: [] };
}

function readTarget(context: FlowReadContext, entry: Entry): FlowTarget | undefined {
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
      if (IGNORED_TARGET_KEYS.includes(field.key)) continue;
      nodes.problem(field.keyNode, `computer ${excerpt(field.key)}: Sightline's desktop operator takes no settings from the script; remove it`);
    }
    return { operator: 'desktop', at };
  }
  let url: string | undefined;
  let tab: FlowTarget['tab'];
  for (const field of fields) {
    if (field.key === 'bridgeMode') {
      tab = readBridgeMode(context, field);
      continue;
    }
    if (BRIDGE_IGNORED_KEYS.includes(field.key)) continue;
    if (field.key === 'url') {
      const scalar = nodes.readString(field.value, `${entry.key} url`, field.keyNode);
      if (scalar !== undefined) url = midsceneText(context, scalar);
      continue;
    }
    if (IGNORED_TARGET_KEYS.includes(field.key)) continue;
    const reason = REFUSED_TARGET_KEYS[field.key];
    if (reason !== undefined) {
      nodes.problem(field.keyNode, `${entry.key} ${field.key} cannot be applied: ${reason}; remove it`);
      continue;
    }
    const suggestion = closestName(field.key, ['url', 'bridgeMode', ...BRIDGE_IGNORED_KEYS, ...IGNORED_TARGET_KEYS, ...Object.keys(REFUSED_TARGET_KEYS)]);
    nodes.problem(field.keyNode, `unknown key ${excerpt(field.key)} in ${entry.key}${suggestion === undefined ? '' : `; did you mean ${suggestion}?`} (Sightline reads url)`);
  }
  if (tab === 'current') return { operator: 'browser', tab, at };
  if (!fields.some((field) => field.key === 'url')) nodes.problem(entry.keyNode, `${entry.key}: expected url: the page to open`);
  return url === undefined ? undefined : { operator: 'browser', url, ...(tab === undefined ? {} : { tab }), at };
}

/** `bridgeMode: newTabWithUrl | currentTab` (false: Sightline's own browser); see BRIDGE_MODES. */
function readBridgeMode(context: FlowReadContext, field: Entry): FlowTarget['tab'] {
  const node = context.nodes.resolve(field.value);
  if (isScalar(node) && node.value === false) return undefined;
  const scalar = context.nodes.readString(field.value, 'bridgeMode', field.keyNode);
  if (scalar === undefined) return undefined;
  const tab = BRIDGE_MODES[scalar.value];
  if (tab === undefined) context.nodes.problem(scalar, `bridgeMode: expected newTabWithUrl, currentTab or false, got ${context.nodes.describe(scalar)}`);
  return tab;
}

function readIgnoredSection(context: FlowReadContext, entry: Entry, ignored: readonly string[]): void {
  const { nodes } = context;
  const map = nodes.readMap(entry.value, entry.key, entry.keyNode);
  if (map === undefined) return;
  for (const field of nodes.entries(map)) {
    if (ignored.includes(field.key)) continue;
    const reason = REFUSED_TARGET_KEYS[field.key];
    if (reason !== undefined) nodes.problem(field.keyNode, `${entry.key} ${field.key} cannot be applied: ${reason}`);
    else nodes.problem(field.keyNode, `unknown key ${excerpt(field.key)} in ${entry.key} (Sightline ignores ${listed(ignored)} there, and reads nothing else)`);
  }
}

function readTask(context: FlowReadContext, node: Node): FlowStep | undefined {
  const { nodes } = context;
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
    const step = readFlowItem(context, nodes.resolve(item) ?? (item as Node));
    if (step !== undefined) steps.push(step);
  }
  if (name === undefined || list === undefined) return undefined;
  return { at: nodes.at(node), label: name, continueOnError, kind: 'group', name, steps };
}

function readFlowItem(context: FlowReadContext, node: Node): FlowStep | undefined {
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
  const option = (key: string) => entries.find((entry) => entry.key === key && entry !== action);
  const base = { at: nodes.at(node), label: action.key, continueOnError: false };
  const label = action.key;

  if (label === 'ai' || label === 'aiAct' || label === 'aiAction') {
    const text = prompt(context, action.value, label, action.keyNode);
    return text === undefined ? undefined : { ...base, kind: 'do', text };
  }
  const verb = LOCATE_VERBS[label];
  if (verb !== undefined) {
    const target = prompt(context, option('locate')?.value ?? option('prompt')?.value ?? action.value, label, action.keyNode);
    return target === undefined ? undefined : { ...base, kind: 'do', text: `${verb} ${target}` };
  }
  switch (label) {
    case 'aiInput':
      return withText(base, inputText(context, action, option('locate'), option('value'), option('mode')));
    case 'aiKeyboardPress':
      return withText(base, keyText(context, action, option('locate'), option('keyName')));
    case 'aiScroll':
      return withText(base, scrollText(context, action, option('locate'), option('direction'), option('scrollType'), option('distance')));
    case 'aiAssert': {
      const text = prompt(context, action.value, label, action.keyNode);
      return text === undefined ? undefined : { ...base, kind: 'assert', text };
    }
    case 'aiWaitFor': {
      const text = prompt(context, action.value, label, action.keyNode);
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
      const text = prompt(context, action.value, label, action.keyNode);
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

/** A prompt: a string, or Midscene's `{ prompt, images }` form (without images, which Sightline cannot pass on). */
function prompt(context: FlowReadContext, node: Node | undefined, what: string, at: Node, options: { optional?: boolean } = {}): string | undefined {
  const { nodes } = context;
  if (node === undefined && options.optional === true) return undefined;
  if (isMap(node)) {
    const entries = nodes.entries(node);
    nodes.unknownKeys(entries, ['prompt', 'images', 'convertHttpImage2Base64'], `in ${what}'s prompt`);
    const images = entries.find((entry) => entry.key === 'images');
    if (images !== undefined) nodes.problem(images.keyNode, `${what} images: prompting with images is not supported; describe the element in words`);
    const text = entries.find((entry) => entry.key === 'prompt');
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

function inputText(context: FlowReadContext, action: Entry, locate: Entry | undefined, valueEntry: Entry | undefined, modeEntry: Entry | undefined): string | undefined {
  const { nodes } = context;
  // Midscene's two forms: { aiInput: <value>, locate: <prompt> } (older) and { aiInput: <prompt>, value: <value> }.
  const valueNode = locate !== undefined ? (action.value ?? valueEntry?.value) : valueEntry?.value;
  const targetNode = locate !== undefined ? locate.value : action.value;
  const target = targetNode === undefined ? 'the focused field' : prompt(context, targetNode, 'aiInput', action.keyNode);
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

function keyText(context: FlowReadContext, action: Entry, locate: Entry | undefined, keyName: Entry | undefined): string | undefined {
  // Older form { aiKeyboardPress: <key>, locate?: <prompt> }; newer { aiKeyboardPress: <prompt>, keyName: <key> }.
  const keyNode = keyName === undefined ? action.value : keyName.value;
  const targetNode = keyName === undefined ? locate?.value : (locate?.value ?? action.value);
  const key = prompt(context, keyNode, 'aiKeyboardPress key', action.keyNode);
  const target = prompt(context, targetNode, 'aiKeyboardPress', action.keyNode, { optional: true });
  if (key === undefined || (targetNode !== undefined && target === undefined)) return undefined;
  return `Press the ${key} key${target === undefined ? '' : ` in ${target}`}`;
}

function scrollText(
  context: FlowReadContext,
  action: Entry,
  locate: Entry | undefined,
  directionEntry: Entry | undefined,
  typeEntry: Entry | undefined,
  distanceEntry: Entry | undefined,
): string | undefined {
  const { nodes } = context;
  const targetNode = locate?.value ?? action.value;
  const target = prompt(context, targetNode, 'aiScroll', action.keyNode, { optional: true });
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
