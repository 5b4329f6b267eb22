/**
 * The Sightline flow format (docs/flows.md, "File format"): a YAML map with `name`, `target`, `vars`, `params`,
 * `secrets` and `steps`, read into the Flow model with every problem found on the way (unknown keys and step
 * kinds with a did-you-mean, wrong types, bad durations and schemas, undefined variables, missing secrets).
 */
import { isMap, isScalar, type Node, type Scalar, type YAMLMap } from 'yaml';
import { closestName } from '../../shared/suggestions.js';
import { readDuration } from '../../shared/durations.js';
import { declaredSecretProblem } from '../../shared/secret-redaction.js';
import { checkCdpEndpoint } from '../operators/cdp-endpoint.js';
import type { Flow, FlowStep, FlowTarget, JsonSchema, SourceAt } from './flow-model.js';
import { listed, type Entry } from './flow-nodes.js';
import { defaultFlowName, type FlowReadContext, type LoadedFlow } from './flow-read-context.js';
import { checkedTemplate, Scope, undefinedVariable } from './flow-scope.js';
import { jsonSchemaProblems } from './json-schema-check.js';
import { excerpt, isTemplateName, soleReference } from './templates.js';

export const STEP_KINDS = ['do', 'assert', 'extract', 'if', 'for_each', 'use', 'wait_for', 'goto', 'sleep'] as const;
type StepKindName = (typeof STEP_KINDS)[number];

const COMMON_STEP_KEYS = ['name', 'continue_on_error'];
const KIND_KEYS: Record<StepKindName, string[]> = {
  do: [],
  assert: [],
  extract: ['as', 'schema'],
  if: ['then', 'else'],
  for_each: ['as', 'steps'],
  use: ['with'],
  wait_for: ['timeout'],
  goto: [],
  sleep: [],
};
const TOP_KEYS = ['name', 'target', 'vars', 'params', 'secrets', 'steps'];
const TARGET_KEYS = ['operator', 'url', 'cdpEndpoint'];
const OPERATORS = ['browser', 'desktop'] as const;

/** How long `wait_for` waits when the step gives no `timeout:`. */
export const DEFAULT_WAIT_FOR_TIMEOUT_MS = 30_000;
/** `if` inside `for_each` inside `if`…: deeper than this is a generated file gone wrong, not a flow. */
const MAX_STEP_DEPTH = 32;

export function readSightlineFlow(context: FlowReadContext, root: YAMLMap): LoadedFlow | undefined {
  const { nodes } = context;
  const file = nodes.source.file;
  const entries = nodes.entries(root);
  nodes.unknownKeys(entries, TOP_KEYS, 'at the top of a flow');
  const entry = (key: string) => entries.find((candidate) => candidate.key === key);

  const nameEntry = entry('name');
  const name = nameEntry === undefined ? defaultFlowName(file) : nodes.readString(nameEntry.value, 'name', nameEntry.keyNode)?.value;

  const secrets = readSecrets(context, entry('secrets'));
  const params = readParams(context, entry('params'), secrets);
  const varsAt: Record<string, SourceAt> = {};
  const vars = readVars(context, entry('vars'), secrets, params, varsAt);
  const scope = new Scope(new Set([...params.map((param) => param.name), ...Object.keys(vars)]), new Set(secrets));
  const targetEntry = entry('target');
  const target = targetEntry === undefined ? undefined : readTarget(context, targetEntry, scope);

  const stepsEntry = entry('steps');
  let steps: FlowStep[] = [];
  if (stepsEntry === undefined) {
    nodes.problem(root, 'a flow needs steps: a list of steps such as - do: …');
  } else {
    const list = nodes.readList(stepsEntry.value, 'steps', stepsEntry.keyNode);
    if (list !== undefined && list.items.length === 0) nodes.problem(list, 'steps: expected at least one step');
    if (list !== undefined) steps = readSteps(context, list.items, scope, 0).steps;
  }
  if (name === undefined) return undefined;
  const flow: Flow = { name, file, format: 'sightline', target, vars, secrets, steps };
  return { flow, params, inputs: [...params.map((param) => param.name), ...Object.keys(vars)], varsAt };
}

function readSecrets(context: FlowReadContext, entry: Entry | undefined): string[] {
  if (entry === undefined) return [];
  const { nodes } = context;
  const list = nodes.readList(entry.value, 'secrets', entry.keyNode);
  if (list === undefined) return [];
  const secrets: string[] = [];
  for (const item of list.items) {
    const scalar = nodes.readString(nodes.resolve(item), 'a secret', list);
    if (scalar === undefined) continue;
    const secret = scalar.value;
    if (!isTemplateName(secret)) {
      nodes.problem(scalar, `secret ${excerpt(secret)}: expected a name of letters, digits and _, like SHOP_PASSWORD`);
      continue;
    }
    if (secrets.includes(secret)) {
      nodes.problem(scalar, `secret ${secret} is listed twice`);
      continue;
    }
    if (context.env[secret] === undefined) nodes.problem(scalar, `secret ${secret} is not set in the environment (secrets are read from the environment only)`);
    else if (context.env[secret] === '') nodes.problem(scalar, `secret ${secret} is empty in the environment`);
    else {
      // Refused here, before anything runs: a value this short would be echoed unmasked (never quoted here).
      const problem = declaredSecretProblem(secret, context.env[secret]);
      if (problem !== undefined) nodes.problem(scalar, `${problem} (it is read from the environment)`);
    }
    // Declared even when unset, so that its references are not also reported as undefined variables.
    secrets.push(secret);
  }
  return secrets;
}

function readParams(context: FlowReadContext, entry: Entry | undefined, secrets: string[]): { name: string; at: SourceAt }[] {
  if (entry === undefined) return [];
  const { nodes } = context;
  const list = nodes.readList(entry.value, 'params', entry.keyNode);
  if (list === undefined) return [];
  const params: { name: string; at: SourceAt }[] = [];
  for (const item of list.items) {
    const scalar = nodes.readString(nodes.resolve(item), 'a parameter', list);
    if (scalar === undefined) continue;
    const name = scalar.value;
    if (!isTemplateName(name)) nodes.problem(scalar, `parameter ${excerpt(name)}: expected a name of letters, digits and _, like user`);
    else if (params.some((param) => param.name === name)) nodes.problem(scalar, `parameter ${name} is listed twice`);
    else if (secrets.includes(name)) nodes.problem(scalar, `parameter ${name} is also a secret; a name is one or the other`);
    else params.push({ name, at: nodes.at(scalar) });
  }
  return params;
}

function readVars(
  context: FlowReadContext,
  entry: Entry | undefined,
  secrets: string[],
  params: { name: string }[],
  varsAt: Record<string, SourceAt>,
): Record<string, unknown> {
  if (entry === undefined) return {};
  const { nodes } = context;
  const map = nodes.readMap(entry.value, 'vars', entry.keyNode);
  if (map === undefined) return {};
  const vars: Record<string, unknown> = {};
  // A variable's default may use the params, the secrets and the variables declared above it.
  let scope = new Scope(new Set(params.map((param) => param.name)), new Set(secrets));
  for (const variable of nodes.entries(map)) {
    const name = variable.key;
    if (!isTemplateName(name)) {
      nodes.problem(variable.keyNode, `variable ${excerpt(name)}: expected a name of letters, digits and _, like fruit`);
      continue;
    }
    if (secrets.includes(name)) nodes.problem(variable.keyNode, `variable ${name} is also a secret; a name is one or the other`);
    if (params.some((param) => param.name === name)) nodes.problem(variable.keyNode, `variable ${name} is also a parameter; a parameter with a default is a variable, list it under vars: only`);
    const current = scope;
    const read = nodes.readJson(variable.value, `variable ${name}`, variable.keyNode, (scalar) => checkedTemplate(nodes, scalar, current, context.env));
    if (read !== undefined) vars[name] = read.value;
    varsAt[name] = nodes.at(variable.keyNode);
    scope = scope.with(name);
  }
  return vars;
}

function readTarget(context: FlowReadContext, entry: Entry, scope: Scope): FlowTarget | undefined {
  const { nodes } = context;
  const map = nodes.readMap(entry.value, 'target', entry.keyNode);
  if (map === undefined) return undefined;
  const entries = nodes.entries(map);
  nodes.unknownKeys(entries, TARGET_KEYS, 'in target');
  const operatorEntry = entries.find((candidate) => candidate.key === 'operator');
  const urlEntry = entries.find((candidate) => candidate.key === 'url');
  let operator: FlowTarget['operator'] | undefined;
  if (operatorEntry === undefined) {
    nodes.problem(map, `target: expected operator: ${listed(OPERATORS)}`);
  } else {
    const scalar = nodes.readString(operatorEntry.value, 'target operator', operatorEntry.keyNode);
    if (scalar !== undefined && (OPERATORS as readonly string[]).includes(scalar.value)) operator = scalar.value as FlowTarget['operator'];
    else if (scalar !== undefined) nodes.problem(scalar, `target operator: expected ${listed(OPERATORS)}, got ${nodes.describe(scalar)}`);
  }
  let url: string | undefined;
  if (urlEntry !== undefined) {
    const scalar = nodes.readString(urlEntry.value, 'target url', urlEntry.keyNode);
    if (scalar !== undefined) url = checkedTemplate(nodes, scalar, scope, context.env);
    if (operator === 'desktop') nodes.problem(urlEntry.keyNode, 'target url: only the browser operator opens a URL; the desktop operator starts from the screen as it is');
  }
  const cdpEntry = entries.find((candidate) => candidate.key === 'cdpEndpoint');
  let cdpEndpoint: string | undefined;
  if (cdpEntry !== undefined) {
    const scalar = nodes.readString(cdpEntry.value, 'target cdpEndpoint', cdpEntry.keyNode);
    // Whether a remote endpoint may be used is the run's to say (--allow-remote-cdp), never the file's: checked at launch.
    const checked = scalar === undefined ? undefined : checkCdpEndpoint(scalar.value, { allowRemote: true });
    if (checked !== undefined && !checked.ok) nodes.problem(scalar, `target cdpEndpoint: ${checked.problem}`);
    else if (checked?.ok === true) cdpEndpoint = checked.endpoint.url;
    if (operator === 'desktop') nodes.problem(cdpEntry.keyNode, "target cdpEndpoint: only the browser operator attaches to a person's Chrome; the desktop operator acts on the screen");
  }
  if (operator === undefined) return undefined;
  return { operator, ...(url === undefined ? {} : { url }), ...(cdpEndpoint === undefined ? {} : { cdpEndpoint }), at: nodes.at(map) };
}

function readSteps(context: FlowReadContext, items: readonly unknown[], scope: Scope, depth: number): { steps: FlowStep[]; scope: Scope } {
  const steps: FlowStep[] = [];
  let current = scope;
  for (const item of items) {
    const read = readStep(context, item, current, depth);
    if (read.step !== undefined) steps.push(read.step);
    current = read.scope;
  }
  return { steps, scope: current };
}

function readStep(context: FlowReadContext, item: unknown, scope: Scope, depth: number): { step: FlowStep | undefined; scope: Scope } {
  const { nodes } = context;
  const node = nodes.resolve(item);
  const none = { step: undefined, scope };
  if (!isMap(node)) {
    nodes.problem(node ?? (item as Node | undefined), `expected a step (a map with one of ${listed(STEP_KINDS)}), got ${nodes.describe(node)}`);
    return none;
  }
  const map = node;
  if (depth >= MAX_STEP_DEPTH) {
    nodes.problem(map, `steps are nested more than ${MAX_STEP_DEPTH} levels deep`);
    return none;
  }
  const entries = nodes.entries(map);
  const kinds = entries.filter((entry) => (STEP_KINDS as readonly string[]).includes(entry.key));
  const first = kinds[0];
  if (first === undefined) {
    reportMissingKind(context, map, entries);
    return none;
  }
  const second = kinds[1];
  if (second !== undefined) {
    nodes.problem(second.keyNode, `a step has one kind; this one has ${listed(kinds.map((kind) => kind.key), 'and')}`);
    return none;
  }
  const kind = first.key as StepKindName;
  nodes.unknownKeys(
    entries.filter((entry) => entry !== first),
    [...KIND_KEYS[kind], ...COMMON_STEP_KEYS],
    `in ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} step`,
  );
  const entry = (key: string) => entries.find((candidate) => candidate.key === key);
  const nameEntry = entry('name');
  const label = nameEntry === undefined ? kind : nodes.readString(nameEntry.value, 'step name', nameEntry.keyNode)?.value ?? kind;
  const continueEntry = entry('continue_on_error');
  const continueOnError = continueEntry === undefined ? false : nodes.readBoolean(continueEntry.value, 'continue_on_error', continueEntry.keyNode) ?? false;
  const base = { at: nodes.at(map), label, continueOnError };
  const template = (what: string): string | undefined => {
    const scalar = nodes.readString(first.value, what, first.keyNode);
    return scalar === undefined ? undefined : checkedTemplate(nodes, scalar, scope, context.env);
  };
  const stepsUnder = (key: string, required: boolean, inner: Scope): { steps: FlowStep[]; scope: Scope } | undefined => {
    const found = entry(key);
    if (found === undefined) {
      if (required) nodes.problem(first.keyNode, `a ${kind} step needs ${key}: a list of steps`);
      return required ? undefined : { steps: [], scope: inner };
    }
    const list = nodes.readList(found.value, `${kind} ${key}`, found.keyNode);
    return list === undefined ? undefined : readSteps(context, list.items, inner, depth + 1);
  };

  switch (kind) {
    case 'do':
    case 'assert': {
      const text = template(`${kind} text`);
      return { step: text === undefined ? undefined : { ...base, kind, text }, scope };
    }
    case 'goto': {
      const url = template('goto url');
      return { step: url === undefined ? undefined : { ...base, kind, url }, scope };
    }
    case 'extract': {
      const text = template('extract text');
      const as = readOutputName(context, entry('as'), scope);
      const schema = readSchema(context, entry('schema'));
      const after = as === undefined ? scope : scope.with(as);
      if (text === undefined || schema === undefined) return { step: undefined, scope: after };
      return { step: { ...base, kind, text, as, schema }, scope: after };
    }
    case 'if': {
      const text = template('if condition');
      const then = stepsUnder('then', true, scope);
      const otherwise = stepsUnder('else', false, scope);
      // A name set in only one branch may have no value after the if; one set in both always has.
      const both = then === undefined || otherwise === undefined ? [] : [...then.scope.names].filter((name) => otherwise.scope.names.has(name));
      if (text === undefined || then === undefined || otherwise === undefined) return { step: undefined, scope: scope.with(...both) };
      return { step: { ...base, kind, text, then: then.steps, else: otherwise.steps }, scope: scope.with(...both) };
    }
    case 'for_each': {
      const items = readItems(context, first, scope);
      const asEntry = entry('as');
      if (asEntry === undefined) nodes.problem(first.keyNode, 'a for_each step needs as: the name each item has in its steps');
      const as = readOutputName(context, asEntry, scope);
      const body = stepsUnder('steps', true, as === undefined ? scope : scope.with(as));
      if (items === undefined || as === undefined || body === undefined) return none;
      return { step: { ...base, kind, items, as, steps: body.steps }, scope };
    }
    case 'use':
      return { step: readUse(context, first, entry('with'), scope, base), scope };
    case 'wait_for': {
      const text = template('wait_for condition');
      const timeoutEntry = entry('timeout');
      let timeoutMs: number | undefined = DEFAULT_WAIT_FOR_TIMEOUT_MS;
      if (timeoutEntry !== undefined) timeoutMs = readDurationAt(context, timeoutEntry, 'timeout', false);
      if (text === undefined || timeoutMs === undefined) return none;
      return { step: { ...base, kind, text, timeoutMs }, scope };
    }
    case 'sleep': {
      const ms = readDurationAt(context, first, 'sleep', true);
      return { step: ms === undefined ? undefined : { ...base, kind, ms }, scope };
    }
  }
}

function reportMissingKind(context: FlowReadContext, map: YAMLMap, entries: Entry[]): void {
  const { nodes } = context;
  const known = new Set([...COMMON_STEP_KEYS, ...Object.values(KIND_KEYS).flat()]);
  const unknown = entries.filter((entry) => !known.has(entry.key));
  if (unknown.length === 0) {
    nodes.problem(map, `a step needs one of ${listed(STEP_KINDS)}`);
    return;
  }
  for (const entry of unknown) {
    const suggestion = closestName(entry.key, STEP_KINDS);
    const hint = suggestion === undefined ? '' : `; did you mean ${suggestion}?`;
    nodes.problem(entry.keyNode, `unknown step kind ${excerpt(entry.key)}${hint} (a step is one of ${listed(STEP_KINDS)})`);
  }
}

function readOutputName(context: FlowReadContext, entry: Entry | undefined, scope: Scope): string | undefined {
  const { nodes } = context;
  if (entry === undefined) return undefined;
  const scalar = nodes.readString(entry.value, 'as', entry.keyNode);
  if (scalar === undefined) return undefined;
  if (!isTemplateName(scalar.value)) {
    nodes.problem(scalar, `as: expected a name of letters, digits and _ (used as \${name}), got ${nodes.describe(scalar)}`);
    return undefined;
  }
  if (scope.secrets.has(scalar.value)) {
    nodes.problem(scalar, `as: ${scalar.value} is a secret's name; choose another`);
    return undefined;
  }
  return scalar.value;
}

function readItems(context: FlowReadContext, entry: Entry, scope: Scope): string | undefined {
  const { nodes } = context;
  const scalar = nodes.readString(entry.value, 'for_each', entry.keyNode);
  if (scalar === undefined) return undefined;
  const reference = soleReference(scalar.value.trim());
  if (reference === undefined) {
    nodes.problem(scalar, `for_each: expected one reference to a list, like \${items}, got ${nodes.describe(scalar)}`);
    return undefined;
  }
  if (reference.root === 'env' || scope.secrets.has(reference.root)) {
    nodes.problem(scalar, `for_each: ${excerpt(reference.raw)} is a text, not a list; name a list from vars or an extract`);
    return undefined;
  }
  if (!scope.names.has(reference.root)) {
    nodes.source.problemAt(nodes.source.atOffset(nodes.offsetIn(scalar, scalar.value.indexOf('${'))), undefinedVariable(reference.root, excerpt(reference.raw), scope));
    return undefined;
  }
  return reference.raw;
}

function readSchema(context: FlowReadContext, entry: Entry | undefined): JsonSchema | undefined {
  if (entry === undefined) return {};
  const { nodes } = context;
  const read = nodes.readJson(entry.value, 'schema', entry.keyNode);
  if (read === undefined) return undefined;
  const problems = jsonSchemaProblems(read.value);
  for (const problem of problems) {
    const where = problem.path.length === 0 ? 'schema' : `schema ${problem.path.join('.')}`;
    const node = entry.value === undefined ? entry.keyNode : nodes.nodeAt(entry.value, problem.path, problem.atKey);
    nodes.problem(node, `${where}: ${problem.message}`);
  }
  return problems.length === 0 ? (read.value as JsonSchema) : undefined;
}

function readUse(context: FlowReadContext, first: Entry, withEntry: Entry | undefined, scope: Scope, base: Omit<FlowStep, 'kind'>): FlowStep | undefined {
  const { nodes } = context;
  const scalar = nodes.readString(first.value, 'use', first.keyNode);
  let given: Record<string, unknown> = {};
  const givenNames: { name: string; node: Node }[] = [];
  let withOk = true;
  if (withEntry !== undefined) {
    const map = nodes.readMap(withEntry.value, 'with', withEntry.keyNode);
    if (map === undefined) {
      withOk = false;
    } else {
      const values: Record<string, unknown> = {};
      for (const parameter of nodes.entries(map)) {
        givenNames.push({ name: parameter.key, node: parameter.keyNode });
        const read = nodes.readJson(parameter.value, `with ${excerpt(parameter.key)}`, parameter.keyNode, (text: Scalar<string>) => checkedTemplate(nodes, text, scope, context.env));
        if (read === undefined) withOk = false;
        else values[parameter.key] = read.value;
      }
      given = values;
    }
  }
  if (scalar === undefined) return undefined;
  if (scalar.value.includes('${')) {
    nodes.problem(scalar, 'use: expected the path of a flow file, without ${…}: the file is read before the run');
    return undefined;
  }
  const loaded = context.useFlow(scalar.value, scalar);
  if (loaded === undefined) return undefined;
  for (const { name, node } of givenNames) {
    if (loaded.inputs.includes(name)) continue;
    const suggestion = closestName(name, loaded.inputs);
    const declared = loaded.inputs.length === 0 ? `${loaded.flow.name} declares no params or vars` : `it declares ${listed(loaded.inputs)}`;
    nodes.problem(node, `with ${excerpt(name)}: ${excerpt(scalar.value)} has no parameter ${excerpt(name)}${suggestion === undefined ? '' : `; did you mean ${suggestion}?`} (${declared})`);
    withOk = false;
  }
  for (const param of loaded.params) {
    if (givenNames.some((given) => given.name === param.name)) continue;
    nodes.problem(withEntry?.keyNode ?? first.keyNode, `use ${excerpt(scalar.value)}: its parameter ${param.name} needs a value; add it under with:`);
    withOk = false;
  }
  if (!withOk) return undefined;
  return { ...(base as Pick<FlowStep, 'at' | 'label' | 'continueOnError'>), kind: 'use', flow: loaded.flow, with: given };
}

function readDurationAt(context: FlowReadContext, entry: Entry, what: string, allowZero: boolean): number | undefined {
  const { nodes } = context;
  const node = entry.value;
  const value = isScalar(node) ? node.value : undefined;
  const reading = readDuration(value, { allowZero, unitRequired: true });
  if (reading.ok) return reading.ms;
  nodes.problem(node ?? entry.keyNode, `${what}: ${reading.problem}, got ${nodes.describe(node)}`);
  return undefined;
}
