/**
 * How one flow opens its session, the same for `sightline flow` on this machine and for `sightline worker` running a
 * queued flow: the SDK's launch on the flow's target, its secrets typed from the environment, the run's flags over
 * the home's configuration.
 */
import { Sightline, SightlineSetupError, type SightlineOptions } from '../../automation/index.js';
import type { FlowRunOptions } from '../../flows/flow-runner.js';
import { flowCdpTarget, type FlowCdpSettings } from './flow-cdp.js';

export interface FlowLaunchSettings {
  home: string;
  env: Record<string, string | undefined>;
  maxCost: string | undefined;
  /** --replay: each do step from its latest passing run, healed (or not) where the screen changed. */
  replay?: SightlineOptions['replay'];
  /** Config paths to the flags' values (`{'model.name': 'gpt-4.1'}`); undefined ones are not given. */
  config: Record<string, string | undefined>;
  yes: boolean;
  onConfirm?: SightlineOptions['onConfirm'];
  onEvent?: SightlineOptions['onEvent'];
  /** `sightline flow`'s --cdp and --allow-remote-cdp; absent for the worker, which refuses flows that need them. */
  cdp?: FlowCdpSettings | undefined;
}

export function flowLauncher(settings: FlowLaunchSettings): FlowRunOptions['open'] {
  return (flow, start) => {
    const chosen = flowCdpTarget(flow, settings.cdp);
    if (!chosen.ok) throw new SightlineSetupError(`${chosen.problem}.`);
    const options: SightlineOptions = {
      home: settings.home,
      env: settings.env,
      operator: flow.target?.operator ?? 'browser',
      ...(start.url === undefined ? {} : { url: start.url }),
      ...(flow.target?.browser === undefined ? {} : { browser: flow.target.browser }),
      secrets: start.secrets,
      flowName: flow.name,
      ...(settings.replay === undefined ? {} : { replay: settings.replay }),
      ...(settings.maxCost === undefined ? {} : { maxCost: settings.maxCost }),
      config: definedOnly(settings.config),
      yes: settings.yes,
      ...(settings.onConfirm === undefined ? {} : { onConfirm: settings.onConfirm }),
      ...(settings.onEvent === undefined ? {} : { onEvent: settings.onEvent }),
    };
    if (chosen.cdp === undefined) return Sightline.launch(options);
    const { operator: _operator, ...connectOptions } = options;
    return Sightline.connect({ ...connectOptions, cdp: chosen.cdp.endpoint, tab: chosen.cdp.tab ?? 'new', allowRemote: chosen.cdp.allowRemote === true });
  };
}

function definedOnly(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
