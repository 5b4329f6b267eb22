/**
 * How a flow names the person's own browser (issue 35, part 2): `target.cdpEndpoint` in a Sightline flow,
 * `bridgeMode` in a Midscene script (https://midscenejs.com/bridge-mode), and which endpoint and tab a run then
 * uses (src/main/cli/flow/flow-cdp.ts): `--cdp` over the file's, loopback unless allowed, and the worker never.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flowCdpTarget } from '../../src/main/cli/flow/flow-cdp.js';
import { FlowFileError, loadFlowFile } from '../../src/main/flows/flow-file.js';
import type { Flow } from '../../src/main/flows/flow-model.js';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-flow-cdp-'));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function load(name: string, text: string): Flow {
  const path = join(folder, name);
  writeFileSync(path, text);
  return loadFlowFile(path, { vars: {}, env: { SHOP: 'https://shop.example/' } });
}

function problems(name: string, text: string): string[] {
  try {
    load(name, text);
  } catch (error) {
    if (error instanceof FlowFileError) return error.problems.map((problem) => `${problem.line}:${problem.column}: ${problem.message}`);
    throw error;
  }
  throw new Error('expected a FlowFileError');
}

const STEPS = 'steps:\n  - assert: I am signed in\n';
const MIDSCENE_TASKS = 'tasks:\n  - name: check\n    flow:\n      - aiAssert: I am signed in\n';

describe('target.cdpEndpoint', () => {
  it('is read from a Sightline flow', () => {
    const flow = load('own.flow.yaml', `target: { operator: browser, url: https://shop.example/, cdpEndpoint: "http://127.0.0.1:9222" }\n${STEPS}`);
    expect(flow.target).toMatchObject({ operator: 'browser', url: 'https://shop.example/', cdpEndpoint: 'http://127.0.0.1:9222' });
  });

  it('is refused when it is no endpoint, or on a desktop target, by line and column', () => {
    expect(problems('bad.flow.yaml', `target: { operator: browser, cdpEndpoint: "9222" }\n${STEPS}`)).toEqual([
      '1:43: target cdpEndpoint: the CDP endpoint is not usable: expected an http://, https://, ws:// or wss:// URL, like http://127.0.0.1:9222',
    ]);
    expect(problems('desk.flow.yaml', `target: { operator: desktop, cdpEndpoint: "http://127.0.0.1:9222" }\n${STEPS}`)).toEqual([
      "1:30: target cdpEndpoint: only the browser operator attaches to a person's Chrome; the desktop operator acts on the screen",
    ]);
  });
});

describe("Midscene's bridgeMode", () => {
  it('newTabWithUrl is a new tab at the url; currentTab is the tab in front, without a url; false is our own browser', () => {
    expect(load('a.yaml', `web:\n  url: "\${SHOP}"\n  bridgeMode: newTabWithUrl\n  closeNewTabsAfterDisconnect: true\n${MIDSCENE_TASKS}`).target).toMatchObject({
      operator: 'browser',
      url: 'https://shop.example/',
      tab: 'new',
    });
    const current = load('b.yaml', `web:\n  url: "\${SHOP}"\n  bridgeMode: currentTab\n${MIDSCENE_TASKS}`).target;
    expect(current).toMatchObject({ operator: 'browser', tab: 'current' });
    expect(current?.url).toBeUndefined();
    expect(load('c.yaml', `web:\n  url: "\${SHOP}"\n  bridgeMode: false\n${MIDSCENE_TASKS}`).target?.tab).toBeUndefined();
  });

  it('refuses another mode, naming the ones there are', () => {
    expect(problems('d.yaml', `web:\n  url: https://shop.example/\n  bridgeMode: sideTab\n${MIDSCENE_TASKS}`)).toEqual([
      '3:15: bridgeMode: expected newTabWithUrl, currentTab or false, got the text "sideTab"',
    ]);
  });
});

describe('which browser a flow runs in', () => {
  const local = { endpoint: undefined, allowRemote: false };

  it("is the flow's own without --cdp, endpoint or bridgeMode", () => {
    expect(flowCdpTarget(load('e.flow.yaml', `target: { operator: browser, url: https://shop.example/ }\n${STEPS}`), local)).toEqual({ ok: true, cdp: undefined });
  });

  it("takes --cdp over the file's endpoint, in a new tab unless bridgeMode says currentTab", () => {
    const own = load('f.flow.yaml', `target: { operator: browser, cdpEndpoint: "http://127.0.0.1:9222" }\n${STEPS}`);
    expect(flowCdpTarget(own, local)).toEqual({ ok: true, cdp: { endpoint: 'http://127.0.0.1:9222', allowRemote: false, tab: 'new' } });
    expect(flowCdpTarget(own, { endpoint: 'http://localhost:9333', allowRemote: false })).toMatchObject({ ok: true, cdp: { endpoint: 'http://localhost:9333' } });
    const current = load('g.yaml', `web:\n  bridgeMode: currentTab\n${MIDSCENE_TASKS}`);
    expect(flowCdpTarget(current, { endpoint: 'http://127.0.0.1:9222', allowRemote: false })).toMatchObject({ ok: true, cdp: { tab: 'current' } });
  });

  it('says what bridgeMode needs when no endpoint is given', () => {
    const bridged = load('h.yaml', `web:\n  url: https://shop.example/\n  bridgeMode: newTabWithUrl\n${MIDSCENE_TASKS}`);
    const checked = flowCdpTarget(bridged, local);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toMatch(/bridgeMode: newTabWithUrl acts in your own Chrome.*--remote-debugging-port=9222 --user-data-dir=.*--cdp http:\/\/127\.0\.0\.1:9222/);
  });

  it("refuses a file's remote endpoint unless the run allows it; a file cannot allow it", () => {
    const remote = load('i.flow.yaml', `target: { operator: browser, cdpEndpoint: "ws://10.1.2.3:9222/devtools/browser/x?token=t0k" }\n${STEPS}`);
    const refused = flowCdpTarget(remote, local);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problem).not.toContain('t0k');
    expect(flowCdpTarget(remote, { endpoint: undefined, allowRemote: true }).ok).toBe(true);
  });

  it("is never the person's browser on a worker", () => {
    const own = load('j.flow.yaml', `target: { operator: browser, cdpEndpoint: "http://127.0.0.1:9222" }\n${STEPS}`);
    const checked = flowCdpTarget(own, undefined);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toContain('sightline worker does not do');
  });
});
