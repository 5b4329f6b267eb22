/** What reading one flow file needs from the loader, and what the loader keeps of each flow it read. */
import type { Node } from 'yaml';
import type { Flow, SourceAt } from './flow-model.js';
import type { FlowNodes } from './flow-nodes.js';
import type { Environment } from './flow-scope.js';

export interface LoadedFlow {
  flow: Flow;
  /** Parameters without a default: `use` must pass each in `with:`, and a flow run on its own needs --var. */
  params: { name: string; at: SourceAt }[];
  /** Every name `with:` or --var may set: the params and the vars. */
  inputs: string[];
  /** Where each var is declared, for a problem with its rendered value. */
  varsAt?: Record<string, SourceAt>;
}

export interface FlowReadContext {
  nodes: FlowNodes;
  env: Environment;
  /** The sub-flow a `use:` names (a path relative to the using file), or undefined after reporting why not at `at`. */
  useFlow(path: string, at: Node): LoadedFlow | undefined;
}

/** `checkout.flow.yaml` → `checkout`: the name of a flow that does not give one. */
export function defaultFlowName(file: string): string {
  const base = file.split(/[\\/]/).at(-1) ?? file;
  return base.replace(/(\.flow)?\.ya?ml$/i, '') || base;
}
