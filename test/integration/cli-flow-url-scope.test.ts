/**
 * A flow's literal URLs against the browser's scope, at load (issue 38, part 3): a target url or a goto outside
 * agent.allowedUrls (or inside agent.blockedUrls) is refused with its file:line:column and exit 2 before any
 * browser starts or any model is asked, as `run --url` refuses the same mistake. A URL made from a variable is
 * left to the browser, which refuses it when it gets there.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFlowFile } from '../../src/main/flows/flow-file.js';
import { flowUrlScopeProblems } from '../../src/main/flows/flow-url-scope.js';
import { runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;
let folder: string;

beforeEach(() => {
  home = createTemporaryHome('sightline-flow-url-scope');
  folder = mkdtempSync(join(tmpdir(), 'sightline-flow-url-scope-'));
  mkdirSync(home.root, { recursive: true });
  writeFileSync(home.configFile, JSON.stringify({ agent: { allowedUrls: ['https://shop.example/*'], blockedUrls: ['https://shop.example/admin*'] } }));
});

afterEach(() => {
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

const OUTSIDE = 'is outside agent.allowedUrls (https://shop.example/*), so the browser would not open it: change the URL, or the scope in the configuration (agent.allowedUrls, agent.blockedUrls)';

describe('a literal URL outside the browser scope', () => {
  it('is refused at load with its file, line and column, exit 2, before any browser or model (target url, goto, nested and in a sub-flow)', async () => {
    write('admin.flow.yaml', 'steps:\n  - goto: https://shop.example/admin/users\n');
    const file = write(
      'flow.yaml',
      [
        'name: Out of scope',
        'target: { operator: browser, url: "https://elsewhere.example/start" }',
        'steps:',
        '  - goto: https://shop.example/cart',
        '  - if: the cart is empty',
        '    then:',
        '      - goto: http://tracker.example/pixel',
        '  - use: admin.flow.yaml',
        '',
      ].join('\n'),
    );
    // No model endpoint is reachable: had the run gone past the check, it would have said so, not this.
    const run = await runSightline(['--home', home.root, 'flow', file, '--base-url', 'http://127.0.0.1:9/v1'], { OPENAI_API_KEY: 'sk-test' });
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain('nothing was run');
    expect(run.stderr).toContain(`${file}:2:9: target url: https://elsewhere.example/start ${OUTSIDE}`);
    expect(run.stderr).toContain(`${file}:7:9: goto: http://tracker.example/pixel ${OUTSIDE}`);
    expect(run.stderr).toContain(`${join(folder, 'admin.flow.yaml')}:2:5: goto: https://shop.example/admin/users is blocked by agent.blockedUrls (https://shop.example/admin*)`);
    expect(run.stderr).not.toContain('shop.example/cart ');
  });

  it('leaves in-scope URLs, URLs from variables, and a desktop flow alone', () => {
    const file = write(
      'flow.yaml',
      'target: { operator: browser, url: "https://shop.example/" }\nvars: { page: "https://elsewhere.example/" }\nsteps:\n  - goto: ${page}\n  - goto: https://shop.example/cart\n',
    );
    const scope = { allowedUrls: ['https://shop.example/*'] };
    expect(flowUrlScopeProblems([loadFlowFile(file, { vars: {}, env: {} })], scope)).toEqual([]);
    expect(flowUrlScopeProblems([loadFlowFile(file, { vars: {}, env: {} })], {})).toEqual([]);
  });
});
