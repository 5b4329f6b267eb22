/**
 * Flow files (issue 25): the issue's example read into the model, and every kind of bad file refused before
 * anything runs, each problem with its file, line and column and what was expected, all of a file's at once.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlowFileError, loadFlowFile, loadFlowFiles, type FlowFileProblem } from '../../src/main/flows/flow-file.js';
import type { Flow } from '../../src/main/flows/flow-model.js';

const fixtures = resolve(import.meta.dirname, '../fixtures/flows');
const ENV = { SHOP_PASSWORD: 'hunter2-hunter2' };
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-flows-'));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function write(name: string, text: string | Buffer): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

function problemsOf(load: () => unknown): FlowFileProblem[] {
  try {
    load();
  } catch (error) {
    if (error instanceof FlowFileError) return error.problems;
    throw error;
  }
  throw new Error('expected a FlowFileError');
}

/** The problems of one file written into the temp folder, as "line:column: message". */
function problems(text: string | Buffer, options: { vars?: Record<string, string>; env?: Record<string, string> } = {}, name = 'flow.yaml'): string[] {
  const path = write(name, text);
  return problemsOf(() => loadFlowFile(path, { vars: options.vars ?? {}, env: options.env ?? ENV })).map((problem) => {
    expect(problem.file).toBe(path);
    return `${problem.line}:${problem.column}: ${problem.message}`;
  });
}

const TARGET = 'target: { operator: browser, url: https://shop.example/ }\n';

describe("the issue's example", () => {
  it('reads into the Flow model, its sub-flow included', () => {
    const file = join(fixtures, 'checkout.flow.yaml');
    const login = join(fixtures, 'login.flow.yaml');
    const at = (line: number, column: number, where = file) => ({ file: where, line, column });
    const base = (line: number, column: number, label: string) => ({ at: at(line, column), label, continueOnError: false });
    const loginFlow: Flow = {
      name: 'Log in',
      file: login,
      format: 'sightline',
      target: undefined,
      vars: {},
      secrets: ['SHOP_PASSWORD'],
      steps: [
        { at: at(6, 5, login), label: 'do', continueOnError: false, kind: 'do', text: 'Type ${user} into the user name field and ${SHOP_PASSWORD} into the password field' },
        { at: at(7, 5, login), label: 'do', continueOnError: false, kind: 'do', text: 'Click "Log in"' },
      ],
    };
    const expected: Flow = {
      name: 'Checkout',
      file,
      format: 'sightline',
      target: { operator: 'browser', url: 'https://shop.example/cart', at: at(6, 9) },
      vars: { fruit: 'apple' },
      secrets: ['SHOP_PASSWORD'],
      steps: [
        { ...base(10, 5, 'do'), kind: 'do', text: 'Add one ${fruit} to the cart' },
        { ...base(11, 5, 'assert'), kind: 'assert', text: 'The cart shows exactly one ${fruit}' },
        {
          ...base(12, 5, 'extract'),
          kind: 'extract',
          text: 'the cart total',
          as: 'total',
          schema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
        },
        { ...base(15, 5, 'if'), kind: 'if', text: 'A cookie banner is visible', then: [{ ...base(16, 13, 'do'), kind: 'do', text: 'Accept the cookies' }], else: [] },
        {
          ...base(17, 5, 'extract'),
          kind: 'extract',
          text: 'the items in the cart',
          as: 'items',
          schema: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        },
        { ...base(20, 5, 'for_each'), kind: 'for_each', items: '${items}', as: 'item', steps: [{ ...base(22, 14, 'do'), kind: 'do', text: 'Open ${item.name}' }] },
        { ...base(23, 5, 'use'), kind: 'use', flow: loginFlow, with: { user: 'alice' } },
        { ...base(25, 5, 'wait_for'), kind: 'wait_for', text: 'The "Order placed" banner is visible', timeoutMs: 30_000 },
        { ...base(27, 5, 'goto'), kind: 'goto', url: 'https://shop.example/orders' },
      ],
    };
    expect(loadFlowFile(file, { vars: {}, env: ENV })).toEqual(expected);
  });

  it('as written in the issue is refused for its two faults: an unquoted ${…} inside braces, then an items nothing sets', () => {
    write('login.flow.yaml', 'params: [user]\nsteps:\n  - do: Log in as ${user}\n');
    const verbatim = [
      'name: Checkout',
      'target: { operator: browser, url: https://shop.example/cart }   # or operator: desktop',
      'vars: { fruit: apple }                # also --var NAME=VALUE and ${env.NAME}',
      'secrets: [SHOP_PASSWORD]              # read from the environment only',
      'steps:',
      '  - do: Add one ${fruit} to the cart',
      '  - assert: The cart shows exactly one ${fruit}',
      '  - extract: the cart total',
      '    as: total',
      '    schema: { type: object, properties: { amount: { type: number } }, required: [amount] }',
      '  - if: A cookie banner is visible',
      '    then: [ { do: Accept the cookies } ]',
      '  - for_each: ${items}                # an array from an earlier extract',
      '    as: item',
      '    steps: [ { do: Open ${item.name} } ]',
      '  - use: login.flow.yaml              # a sub-flow, with parameters',
      '    with: { user: alice }',
      '  - wait_for: The "Order placed" banner is visible',
      '    timeout: 30s',
      '  - goto: https://shop.example/orders',
      '',
    ].join('\n');
    const [first] = problems(verbatim);
    expect(first).toBe('15:26: YAML: Unexpected flow-map-start at node end (a text with ${…} inside [ … ] or { … } must be quoted: "Open ${item.name}")');
    expect(problems(verbatim.replace('do: Open ${item.name}', 'do: "Open ${item.name}"'))).toEqual([
      '13:15: undefined variable items in ${items} (defined here: fruit, total, SHOP_PASSWORD)',
    ]);
  });
});

describe('a bad file is refused with each problem at its line and column', () => {
  it('YAML syntax: a quote never closed is said where it opens, not past the end of the file', () => {
    expect(problems(`${TARGET}steps:\n  - do: "unclosed\n`)).toEqual(['3:9: YAML: this " opens a text that is never closed; end the text with "']);
  });

  it('YAML syntax: a key indented more than the one above it is said in words at its own line, once (issue 38)', () => {
    const text = `name: Pay\n${TARGET}steps:\n  - extract: the total\n      as: total\n  - do: Pay\n  - assert: paid\n`;
    expect(problems(text)).toEqual(['5:7: indentation: `as:` is indented more than the key above it (`extract:` on line 4); line it up with `extract:`']);
  });

  it('YAML syntax: no problem is placed on a line past the end of the file', () => {
    const text = `${TARGET}steps: [\n  { do: a },\n  { do: b\n  - do: c\n  - do: d\n`;
    const lines = text.trimEnd().split('\n').length;
    const found = problems(text);
    expect(found.length).toBeGreaterThan(1);
    for (const problem of found) expect(Number(problem.split(':')[0]), problem).toBeLessThanOrEqual(lines);
  });

  it('an unknown step kind, with the known ones and the closest', () => {
    expect(problems(`${TARGET}steps:\n  - asert: the cart is empty\n`)).toEqual([
      '3:5: unknown step kind asert; did you mean assert? (a step is one of do, assert, extract, if, for_each, use, wait_for, goto or sleep)',
    ]);
    expect(problems(`${TARGET}steps:\n  - click: the button\n`)).toEqual([
      '3:5: unknown step kind click (a step is one of do, assert, extract, if, for_each, use, wait_for, goto or sleep)',
    ]);
  });

  it('a step with two kinds, and an unknown key in a step or at the top', () => {
    expect(problems(`${TARGET}stpes: []\nsteps:\n  - do: a\n    assert: b\n  - wait_for: c\n    timout: 5s\n`)).toEqual([
      '2:1: unknown key stpes at the top of a flow; did you mean steps? expected name, target, vars, params, secrets or steps',
      '5:5: a step has one kind; this one has do and assert',
      '7:5: unknown key timout in a wait_for step; did you mean timeout? expected timeout, name or continue_on_error',
    ]);
  });

  it('wrong types, with what was found', () => {
    expect(problems(`${TARGET}steps:\n  - do: 42\n  - assert: ok\n    continue_on_error: "yes"\n  - extract: the total\n    as: [total]\n  - if: x\n    then: { do: y }\n`)).toEqual([
      '3:9: do text: expected text, got the number 42',
      '5:24: continue_on_error: expected true or false, got the text "yes"',
      '7:9: as: expected text, got a list',
      '9:11: if then: expected a list, got a map',
    ]);
  });

  it('a JSON Schema that is not one, at the faulty keyword', () => {
    const text = `${TARGET}steps:\n  - extract: the total\n    schema:\n      type: object\n      properties:\n        amount: { type: numbr }\n        currency: { type: string, minLength: -1 }\n      required: amount\n      propertys: {}\n`;
    expect(problems(text)).toEqual([
      '7:25: schema properties.amount.type: unknown type numbr (did you mean number?); expected one of string, number, integer, boolean, object, array, null, or a list of them',
      '8:46: schema properties.currency.minLength: expected a whole number, 0 or more',
      '9:17: schema required: expected a list of property names (strings)',
      '10:7: schema propertys: unknown JSON Schema keyword; did you mean properties?',
    ]);
  });

  it('a schema that only zod can tell is unusable (a $ref to nowhere)', () => {
    const [problem] = problems(`${TARGET}steps:\n  - extract: the total\n    schema: { $ref: '#/$defs/missing' }\n`);
    expect(problem).toMatch(/^4:13: schema: not a schema zod can use: /);
  });

  it('an undefined variable, at the reference itself in a plain scalar and at the scalar otherwise', () => {
    expect(problems(`${TARGET}vars: { fruit: apple }\nsteps:\n  - do: Add one \${frut} and \${fruit}\n  - do: >\n      Open \${nothing}\n`)).toEqual([
      '4:17: undefined variable frut in ${frut}; did you mean fruit? (defined here: fruit)',
      '5:9: undefined variable nothing in ${nothing} (defined here: fruit)',
    ]);
  });

  it('a name set inside a branch or a loop is not defined after it; one set in both branches is', () => {
    const text = [
      TARGET.trimEnd(),
      'steps:',
      '  - if: a banner shows',
      '    then: [ { extract: its text, as: banner }, { extract: its colour, as: colour } ]',
      '    else: [ { extract: the title, as: banner } ]',
      '  - do: Read ${banner}',
      '  - do: Paint it ${colour}',
      '  - for_each: ${rows}',
      '    as: row',
      '    steps: [ { do: "Open ${row}" } ]',
      '  - do: Close ${row}',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      '7:18: undefined variable colour in ${colour} (defined here: banner)',
      '8:15: undefined variable rows in ${rows} (defined here: banner)',
      '11:15: undefined variable row in ${row} (defined here: banner)',
    ]);
  });

  it('a secret not in the environment, and an environment variable that is not set', () => {
    expect(problems(`target: { operator: browser, url: "https://\${env.SHOP_HOST}/" }\nsecrets: [SHOP_PASSWORD, SHOP_TOKEN]\nsteps:\n  - do: Type \${SHOP_TOKEN}\n`, { env: ENV })).toEqual([
      '1:44: environment variable SHOP_HOST is not set (${env.SHOP_HOST})',
      '2:26: secret SHOP_TOKEN is not set in the environment (secrets are read from the environment only)',
    ]);
  });

  it('reads ${env.NAME} at load time, keeping a ${ in its value literal', () => {
    const path = write('flow.yaml', `target: { operator: browser, url: "https://\${env.SHOP_HOST}/" }\nsteps:\n  - do: Search for \${env.QUERY}\n`);
    const flow = loadFlowFile(path, { vars: {}, env: { SHOP_HOST: 'shop.example', QUERY: 'price ${total}' } });
    expect(flow.target?.url).toBe('https://shop.example/');
    expect(flow.steps[0]).toMatchObject({ kind: 'do', text: 'Search for price $${total}' });
  });

  it('bad durations', () => {
    expect(problems(`${TARGET}steps:\n  - wait_for: done\n    timeout: 30 sec\n  - sleep: -5\n  - sleep: "500"\n  - wait_for: done\n    timeout: 0\n`)).toEqual([
      '4:14: timeout: expected a duration (500ms, 30s, 1.5m or 2h), got the text "30 sec"',
      '5:12: sleep: expected a duration of 0 or more (500ms, 30s, 1.5m or 2h), got the number -5',
      '6:12: sleep: 500 has no unit, and one author means seconds where another means milliseconds: write 500s or 500ms, got the text "500"',
      '8:14: timeout: expected a duration above 0, got the number 0',
    ]);
  });

  it('a bare number as a duration is refused like a quoted one, with the fix (issue 38)', () => {
    expect(problems(`${TARGET}steps:\n  - wait_for: done\n    timeout: 10\n  - sleep: 2\n  - sleep: 1.5\n  - sleep: 0\n`)).toEqual([
      '4:14: timeout: 10 has no unit, and one author means seconds where another means milliseconds: write 10s or 10ms, got the number 10',
      '5:12: sleep: 2 has no unit, and one author means seconds where another means milliseconds: write 2s or 2ms, got the number 2',
      '6:12: sleep: 1.5 has no unit, and one author means seconds where another means milliseconds: write 1.5s or 1.5ms, got the number 1.5',
    ]);
  });

  it('a use of a missing file, and a cycle of use named by its chain', () => {
    expect(problems(`${TARGET}steps:\n  - use: nowhere.flow.yaml\n`)).toEqual([`3:10: use: no such flow file nowhere.flow.yaml (looked for ${join(folder, 'nowhere.flow.yaml')})`]);
    write('b.flow.yaml', 'steps:\n  - use: c.flow.yaml\n');
    write('c.flow.yaml', 'steps:\n  - do: something\n  - use: b.flow.yaml\n');
    const path = write('a.flow.yaml', `${TARGET}steps:\n  - use: b.flow.yaml\n`);
    const found = problemsOf(() => loadFlowFile(path, { vars: {}, env: ENV }));
    expect(found).toEqual([{ file: join(folder, 'c.flow.yaml'), line: 3, column: 10, message: 'use makes a cycle: b.flow.yaml → c.flow.yaml → b.flow.yaml' }]);
  });

  it('with: a parameter the sub-flow does not declare, and one it needs that is missing', () => {
    write('login.flow.yaml', 'params: [user]\nvars: { shop: main }\nsteps:\n  - do: Log in as ${user} at ${shop}\n');
    expect(problems(`${TARGET}steps:\n  - use: login.flow.yaml\n    with: { usr: alice }\n`)).toEqual([
      '4:5: use login.flow.yaml: its parameter user needs a value; add it under with:',
      '4:13: with usr: login.flow.yaml has no parameter usr; did you mean user? (it declares user or shop)',
    ]);
  });

  it('a with: value is a template checked where the use stands', () => {
    write('login.flow.yaml', 'params: [user]\nsteps:\n  - do: Log in as ${user}\n');
    const path = write('flow.yaml', `${TARGET}vars: { who: alice }\nsteps:\n  - use: login.flow.yaml\n    with: { user: "\${who}" }\n`);
    const flow = loadFlowFile(path, { vars: {}, env: ENV });
    expect(flow.steps[0]).toMatchObject({ kind: 'use', with: { user: '${who}' }, flow: { name: 'login', target: undefined } });
    expect(problems(`${TARGET}steps:\n  - use: login.flow.yaml\n    with: { user: "\${whom}" }\n`)).toEqual(['4:20: undefined variable whom in ${whom} (no variables are defined here)']);
  });

  it('a flow run on its own needs a target, and --var for each parameter', () => {
    expect(problems('params: [user]\nsteps:\n  - do: Log in as ${user}\n')).toEqual([
      '1:1: a flow run on its own needs target: { operator: browser, url: … } or { operator: desktop } (a flow without one can only run under use:)',
      '1:10: parameter user has no value; pass --var user=VALUE',
    ]);
  });

  it('--var gives parameters and overrides vars, as literal text; a --var no flow declares is refused', () => {
    const path = write('flow.yaml', `${TARGET}params: [user]\nvars: { fruit: apple, fruits: [apple] }\nsteps:\n  - do: Buy \${fruit} for \${user}\n`);
    const flow = loadFlowFile(path, { vars: { user: 'alice ${x}', fruit: 'pear' }, env: ENV });
    expect(flow.vars).toEqual({ fruit: 'pear', fruits: ['apple'], user: 'alice $${x}' });
    expect(problemsOf(() => loadFlowFile(path, { vars: { user: 'a', fuit: 'pear', fruits: 'x' }, env: ENV })).map((problem) => `${problem.line}:${problem.column}: ${problem.message}`)).toEqual([
      '1:1: --var fruits: fruits holds a list in the flow; --var sets text only',
      '1:1: --var fuit: no flow declares fuit under vars: or params:; did you mean fruit? (declared: user, fruit or fruits)',
    ]);
  });

  it('collects every problem of every file in one error, its message one "file:line:column: message" per line', () => {
    const first = write('first.yaml', `${TARGET}steps:\n  - do: 1\n  - sleep: soon\n`);
    const second = write('second.yaml', 'target: { operator: phone }\nsteps: []\n');
    let error: unknown;
    try {
      loadFlowFiles([first, second], { vars: {}, env: ENV });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FlowFileError);
    expect((error as Error).message).toBe(
      [
        `${first}:3:9: do text: expected text, got the number 1`,
        `${first}:4:12: sleep: expected a duration (500ms, 30s, 1.5m or 2h), got the text "soon"`,
        `${second}:1:21: target operator: expected browser or desktop, got the text "phone"`,
        `${second}:2:8: steps: expected at least one step`,
      ].join('\n'),
    );
  });
});

describe('hostile files give a clear problem, never a hang or a crash', () => {
  it('a 5 MB file', () => {
    const text = `${TARGET}steps:\n${'  - do: click the next button\n'.repeat(175_000)}`;
    expect(text.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(problems(text)).toEqual(['1:1: is 5.0 MB; a flow file may be at most 1.0 MB']);
  });

  it('nesting deep enough to exhaust the YAML parser', () => {
    expect(problems(`${TARGET}steps: ${'['.repeat(500_000)}`)).toEqual(['2:108: is nested more than 100 brackets deep']);
    const indented = Array.from({ length: 300 }, (_, depth) => `${' '.repeat(depth)}a:`).join('\n');
    expect(problems(indented)).toEqual(['202:1: is indented or nested more than 200 columns deep']);
    expect(problems(`steps:\n${'- '.repeat(150_000)}x\n`)).toEqual(['2:1: is indented or nested more than 200 columns deep']);
  });

  it('anchors and aliases that expand a billion times', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const current = String.fromCharCode(97 + level);
      lines.push(`${current}: &${current} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    expect(problems(`${lines.join('\n')}\nsteps:\n  - do: *i\n`)).toEqual(['1:1: YAML: its anchors and aliases expand too far (Excessive alias count indicates a resource exhaustion attack)']);
  });

  it('an anchor used a few times is fine', () => {
    const path = write('flow.yaml', `${TARGET}steps:\n  - &accept { do: Accept the cookies }\n  - *accept\n`);
    expect(loadFlowFile(path, { vars: {}, env: ENV }).steps.map((step) => step.kind)).toEqual(['do', 'do']);
  });

  it('bytes that are not UTF-8, at the first bad one', () => {
    expect(problems(Buffer.concat([Buffer.from(`${TARGET}steps:\n  - do: caf`), Buffer.from([0xe9, 0x20, 0x6f]), Buffer.from('k\n')]))).toEqual([
      '3:12: is not UTF-8 text (byte 0xe9); save it as UTF-8',
    ]);
    expect(problems(Buffer.from([0xff, 0xfe, 0x61, 0x00]))).toEqual(['1:1: is UTF-16 text; save it as UTF-8']);
  });

  it('a directory, a missing file, an empty file and a FIFO', () => {
    mkdirSync(join(folder, 'flows.yaml'));
    expect(problemsOf(() => loadFlowFile(join(folder, 'flows.yaml'), { vars: {}, env: ENV }))).toEqual([
      { file: join(folder, 'flows.yaml'), line: 1, column: 1, message: 'is a directory; expected a flow file (.yaml)' },
    ]);
    expect(problemsOf(() => loadFlowFile(join(folder, 'none.yaml'), { vars: {}, env: ENV }))[0]?.message).toBe('no such file');
    expect(problems('# nothing but a comment\n')).toEqual(['1:1: is empty; expected a flow (with steps:) or a Midscene script (with tasks:)']);
    const fifo = join(folder, 'pipe.yaml');
    if (spawnSync('mkfifo', [fifo]).status === 0) {
      expect(problemsOf(() => loadFlowFile(fifo, { vars: {}, env: ENV }))[0]?.message).toBe('is not a regular file; expected a flow file (.yaml)');
    }
  });

  it('control characters in a value are escaped and a long one cut in the message', () => {
    const [problem] = problems(`${TARGET}steps:\n  - do: "\\e]0;owned\\a${'x'.repeat(500)}"\n    colour: red\n  - do: 5\n`);
    expect(problem).toBe('4:5: unknown key colour in a do step; expected name or continue_on_error');
    expect(problems(`${TARGET}steps:\n  - extract: the total\n    as: total\n    colour: red\n`)[0]).toMatch(/^5:5: unknown key colour in an extract step;/);
    const [typed] = problems(`${TARGET}steps:\n  - do: [1]\n  - assert: 7\n  - extract: "\\e]0;owned\\a${'x'.repeat(500)}"\n    as: "\\e[2J"\n`);
    expect(typed).toBe('3:9: do text: expected text, got a list');
    const all = problems(`${TARGET}steps:\n  - extract: x\n    as: "\\e[2J${'y'.repeat(300)}"\n`);
    expect(all).toHaveLength(1);
    expect(all[0]).toContain('got the text "\\u001b[2Jyyy');
    expect(all[0]).not.toContain('\u001b');
    expect(all[0]?.length).toBeLessThan(200);
  });
});
