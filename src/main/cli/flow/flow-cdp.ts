/**
 * Which browser a flow acts in: its own (launched for it), or the person's running Chrome over CDP, from `--cdp
 * URL` or, without it, the flow's `target.cdpEndpoint`; Midscene's `bridgeMode` says which tab. Checked for every
 * flow before anything starts, so that a missing or remote endpoint is a usage error naming the file.
 */
import type { Flow } from '../../flows/flow-model.js';
import { checkCdpEndpoint } from '../../operators/cdp-endpoint.js';
import type { CdpTarget } from '../../operators/create-operator.js';

/** The run's say: `--cdp` and `--allow-remote-cdp`. Absent for `sightline worker`, which never acts in a person's browser. */
export interface FlowCdpSettings {
  endpoint: string | undefined;
  allowRemote: boolean;
}

export type FlowCdpCheck = { ok: true; cdp: CdpTarget | undefined } | { ok: false; problem: string };

export function flowCdpTarget(flow: Flow, settings: FlowCdpSettings | undefined): FlowCdpCheck {
  const target = flow.target;
  const wantsPersonsBrowser = target?.cdpEndpoint !== undefined || target?.tab !== undefined;
  if (settings === undefined) {
    if (!wantsPersonsBrowser) return { ok: true, cdp: undefined };
    return { ok: false, problem: "it acts in a person's own browser (target.cdpEndpoint or bridgeMode), which sightline worker does not do: run it with sightline flow --cdp URL on that person's machine" };
  }
  if (target?.operator === 'desktop') {
    return settings.endpoint === undefined ? { ok: true, cdp: undefined } : { ok: false, problem: '--cdp attaches a browser flow to your Chrome; this flow acts on the desktop' };
  }
  const endpoint = settings.endpoint ?? target?.cdpEndpoint;
  if (endpoint === undefined) {
    if (target?.tab === undefined) return { ok: true, cdp: undefined };
    const mode = target.tab === 'current' ? 'currentTab' : 'newTabWithUrl';
    return {
      ok: false,
      problem:
        `bridgeMode: ${mode} acts in your own Chrome. Midscene reaches it through its Chrome extension; Sightline reaches it over ` +
        'the DevTools protocol instead: start Chrome with --remote-debugging-port=9222 --user-data-dir=<a folder of its own> and ' +
        'run with --cdp http://127.0.0.1:9222 (docs/flows.md, "Acting in your own browser")',
    };
  }
  const checked = checkCdpEndpoint(endpoint, { allowRemote: settings.allowRemote });
  if (!checked.ok) return { ok: false, problem: checked.problem };
  return { ok: true, cdp: { endpoint: checked.endpoint.url, allowRemote: settings.allowRemote, tab: target?.tab ?? 'new' } };
}
