/**
 * Midscene's YAML scripts (issue 25, part 3): scripts written for these tests in Midscene's format
 * (test/fixtures/midscene, each citing the Midscene documentation and examples whose format it follows) convert
 * to flows, and what Sightline cannot run is refused by name and line.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlowFileError, loadFlowFile } from '../../src/main/flows/flow-file.js';
import { readQueryShape } from '../../src/main/flows/midscene-query-shape.js';

const fixtures = resolve(import.meta.dirname, '../fixtures/midscene');
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-midscene-'));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function problemsOf(path: string, env: Record<string, string> = {}): string[] {
  try {
    loadFlowFile(path, { vars: {}, env });
  } catch (error) {
    if (error instanceof FlowFileError) return error.problems.map((problem) => `${problem.line}:${problem.column}: ${problem.message}`);
    throw error;
  }
  throw new Error('expected a FlowFileError');
}

function script(flow: string, env: Record<string, string> = {}, head = 'web:\n  url: https://shop.example/\n') {
  const path = join(folder, 'script.yaml');
  writeFileSync(path, `${head}tasks:\n  - name: only\n    flow:\n${flow}`);
  return { path, load: () => loadFlowFile(path, { vars: {}, env }), problems: () => problemsOf(path, env) };
}

/** The steps of a one-task script, without their places. */
function stepsOf(flow: string, env: Record<string, string> = {}): unknown[] {
  const [task] = script(flow, env).load().steps;
  if (task?.kind !== 'group') throw new Error('expected a group');
  return task.steps.map(({ at: _at, ...rest }) => rest);
}

const at = (file: string, line: number, column: number) => ({ file, line, column });

describe('Midscene scripts written in its format (test/fixtures/midscene)', () => {
  it('midscene-older-names.yaml (target:, aiAction, aiScroll with options beside it, aiInput with locate) converts, each task a group', () => {
    const file = join(fixtures, 'midscene-older-names.yaml');
    const flow = loadFlowFile(file, { vars: {}, env: {} });
    const step = (line: number, column: number, label: string, rest: Record<string, unknown>) => ({ at: at(file, line, column), label, continueOnError: false, ...rest });
    expect(flow).toEqual({
      name: 'midscene-older-names',
      file,
      format: 'midscene',
      notes: ["aiTap deepThink (line 16) is ignored: it tunes Midscene's locator; Sightline's model looks at the whole screen each time"],
      target: { operator: 'browser', url: 'http://notes.test/', at: at(file, 8, 3) },
      vars: {},
      secrets: [],
      steps: [
        step(10, 5, 'open the archive', {
          kind: 'group',
          name: 'open the archive',
          steps: [
            step(12, 9, 'aiScroll', { kind: 'do', text: 'Scroll to the bottom of the page' }),
            step(15, 9, 'aiTap', { kind: 'do', text: 'Click the "Archive" link in the footer' }),
            step(17, 9, 'sleep', { kind: 'sleep', ms: 1000 }),
          ],
        }),
        step(19, 5, 'find a note', {
          kind: 'group',
          name: 'find a note',
          steps: [
            step(21, 9, 'aiInput', { kind: 'do', text: 'Type "grocery list" into the search field above the notes, replacing any text already there' }),
            step(23, 9, 'aiKeyboardPress', { kind: 'do', text: 'Press the Enter key' }),
            step(24, 9, 'aiWaitFor', { kind: 'wait_for', text: 'at least one note is listed', timeoutMs: 5000 }),
            step(26, 9, 'aiScroll', { kind: 'do', text: 'Scroll to the top of the page' }),
            step(29, 9, 'aiHover', { kind: 'do', text: 'Move the mouse over the title of the first note' }),
            step(30, 9, 'aiAction', { kind: 'do', text: 'open the first note and pin it' }),
            step(31, 9, 'aiAssert', { kind: 'assert', text: 'the open note shows a pin beside its title' }),
          ],
        }),
      ],
    });
  });

  it("midscene-basic.yaml (web:, aiAct, ai, aiInput with value, a task's continueOnError) converts", () => {
    const flow = loadFlowFile(join(fixtures, 'midscene-basic.yaml'), { vars: {}, env: {} });
    expect(flow.target).toMatchObject({ operator: 'browser', url: 'http://shop.test/' });
    expect(flow.steps.map((task) => (task.kind === 'group' ? [task.name, task.continueOnError, task.steps.map((step) => [step.label, step.kind, 'text' in step ? step.text : ''])] : []))).toEqual([
      [
        'fill in the sign-up form',
        false,
        [
          ['aiAct', 'do', 'open the sign-up form and fill it in with a made-up name, but leave it unsent'],
          ['aiInput', 'do', 'Type "someone@shop.test" into the e-mail field, replacing any text already there'],
        ],
      ],
      ['close the newsletter popup', true, [['ai', 'do', 'close the newsletter popup if one is showing']]],
      ['check the sign-up form', false, [['aiAssert', 'assert', 'the sign-up form has a name field, an e-mail field and a password field']]],
    ]);
  });

  it('midscene-phone-viewport-refused.yaml sizes the browser as a phone and converts whole (issue 35: its aiLocate is a locate step)', () => {
    const path = join(fixtures, 'midscene-phone-viewport-refused.yaml');
    const flow = loadFlowFile(path, { vars: {}, env: {} });
    expect(flow.target?.browser).toEqual({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, userAgent: 'Mozilla/5.0 (Phone; made up for a Sightline test) Mobile' });
    expect(flow.notes).toEqual(["web output (line 14) is ignored: it names Midscene's own output file; use --out"]);
    const located = flow.steps.flatMap((step) => (step.kind === 'group' ? step.steps : [step])).find((step) => step.label === 'aiLocate');
    expect(located).toMatchObject({ kind: 'locate', text: 'the add-to-cart button of the first lamp', as: undefined, at: { line: 31 } });
  });

  it('midscene-shop-login.yaml converts whole (issue 35: its javascript item runs in the page); its aiQuery shape reads as a schema', () => {
    const path = join(fixtures, 'midscene-shop-login.yaml');
    const [, extract, count] = loadFlowFile(path, { vars: {}, env: {} }).steps;
    expect(count?.kind === 'group' ? count.steps[0] : undefined).toMatchObject({
      label: 'javascript',
      kind: 'javascript',
      code: "document.querySelectorAll('.product-card').length\n",
      as: 'card-count',
    });
    expect(extract?.kind === 'group' ? extract.steps[0] : undefined).toMatchObject({
      label: 'aiQuery',
      kind: 'extract',
      as: 'products',
      text: "every product card with its title, its price, the label of its button (such as 'Add to cart') and the address of its picture",
      schema: {
        type: 'array',
        items: {
          type: 'object',
          properties: { title: { type: 'string' }, price: { type: 'number' }, buttonLabel: { type: 'string' }, pictureUrl: { type: 'string' } },
          required: ['title', 'price', 'buttonLabel', 'pictureUrl'],
        },
      },
    });
  });
});

describe('flow items', () => {
  it('instant actions become do steps worded in English, their Midscene name kept as the label', () => {
    expect(
      stepsOf(
        [
          '      - ai: log in',
          '      - aiAction: add a pear',
          '      - aiTap: the login button',
          '      - aiHover:',
          '          prompt: the menu',
          '      - aiRightClick: the file',
          '      - aiDoubleClick: the word',
          '      - aiInput: the search box',
          '        value: pears',
          '      - aiInput: ""',
          '        locate: the search box',
          '      - aiInput: the note',
          '        value: " more"',
          '        mode: append',
          '      - aiKeyboardPress: Enter',
          '      - aiKeyboardPress: Tab',
          '        locate: the name field',
          '      - aiKeyboardPress: the search box',
          '        keyName: Escape',
          '      - aiScroll:',
          '        direction: up',
          '        distance: 300',
          '        locate: the list',
          '      - aiScroll: the table',
          '        scrollType: scrollToRight',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      { label: 'ai', continueOnError: false, kind: 'do', text: 'log in' },
      { label: 'aiAction', continueOnError: false, kind: 'do', text: 'add a pear' },
      { label: 'aiTap', continueOnError: false, kind: 'do', text: 'Click the login button' },
      { label: 'aiHover', continueOnError: false, kind: 'do', text: 'Move the mouse over the menu' },
      { label: 'aiRightClick', continueOnError: false, kind: 'do', text: 'Right-click the file' },
      { label: 'aiDoubleClick', continueOnError: false, kind: 'do', text: 'Double-click the word' },
      { label: 'aiInput', continueOnError: false, kind: 'do', text: 'Type "pears" into the search box, replacing any text already there' },
      { label: 'aiInput', continueOnError: false, kind: 'do', text: 'Clear the search box' },
      { label: 'aiInput', continueOnError: false, kind: 'do', text: 'Type " more" into the note, after the text already there' },
      { label: 'aiKeyboardPress', continueOnError: false, kind: 'do', text: 'Press the Enter key' },
      { label: 'aiKeyboardPress', continueOnError: false, kind: 'do', text: 'Press the Tab key in the name field' },
      { label: 'aiKeyboardPress', continueOnError: false, kind: 'do', text: 'Press the Escape key in the search box' },
      { label: 'aiScroll', continueOnError: false, kind: 'do', text: 'Scroll up by 300 pixels in the list' },
      { label: 'aiScroll', continueOnError: false, kind: 'do', text: 'Scroll to the right end of the table' },
    ]);
  });

  it('assertions, waits, sleeps and queries', () => {
    expect(
      stepsOf(
        [
          '      - aiAssert: the cart is empty',
          '        errorMessage: not empty',
          '      - aiWaitFor: the page has loaded',
          '        timeout: 10000',
          '      - aiWaitFor: the spinner is gone',
          '      - sleep: 1500',
          '      - aiQuery: "string[], the product names"',
          '        name: names',
          '      - aiQuery: "{name: string, price?: number}, the first product"',
          "      - aiQuery: \"'in stock' | 'sold out', the status\"",
          '      - aiQuery: the number of products on the page',
          '        name: count',
          '      - aiNumber: the total price',
          '        name: total',
          '      - aiBoolean: is the cart empty?',
          '      - aiString: the title',
          '      - aiAsk: what is this page about?',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      { label: 'aiAssert', continueOnError: false, kind: 'assert', text: 'the cart is empty' },
      { label: 'aiWaitFor', continueOnError: false, kind: 'wait_for', text: 'the page has loaded', timeoutMs: 10_000 },
      { label: 'aiWaitFor', continueOnError: false, kind: 'wait_for', text: 'the spinner is gone', timeoutMs: 30_000 },
      { label: 'sleep', continueOnError: false, kind: 'sleep', ms: 1500 },
      { label: 'aiQuery', continueOnError: false, kind: 'extract', text: 'the product names', as: 'names', schema: { type: 'array', items: { type: 'string' } } },
      {
        label: 'aiQuery',
        continueOnError: false,
        kind: 'extract',
        text: 'the first product',
        as: undefined,
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name'] },
      },
      { label: 'aiQuery', continueOnError: false, kind: 'extract', text: 'the status', as: undefined, schema: { enum: ['in stock', 'sold out'] } },
      { label: 'aiQuery', continueOnError: false, kind: 'extract', text: 'the number of products on the page', as: 'count', schema: {} },
      { label: 'aiNumber', continueOnError: false, kind: 'extract', text: 'the total price', as: 'total', schema: { type: 'number' } },
      { label: 'aiBoolean', continueOnError: false, kind: 'extract', text: 'is the cart empty?', as: undefined, schema: { type: 'boolean' } },
      { label: 'aiString', continueOnError: false, kind: 'extract', text: 'the title', as: undefined, schema: { type: 'string' } },
      { label: 'aiAsk', continueOnError: false, kind: 'extract', text: 'what is this page about?', as: undefined, schema: { type: 'string' } },
    ]);
  });

  it("a task's continueOnError carries to its group", () => {
    const path = join(folder, 'tasks.yaml');
    writeFileSync(path, 'web: { url: "https://a.example/" }\ntasks:\n  - name: optional\n    continueOnError: true\n    flow: [ { ai: close the popup } ]\n');
    expect(loadFlowFile(path, { vars: {}, env: {} }).steps[0]).toMatchObject({ kind: 'group', name: 'optional', label: 'optional', continueOnError: true });
  });

  it('reads ${NAME} as the environment variable, as Midscene does, and reports one that is not set', () => {
    const { problems } = script('      - aiInput: the user field\n        value: ${SHOP_USER}\n', { SHOP_USER: 'alice ${x}' }, 'web:\n  url: https://${SHOP_HOST}/\n');
    expect(problems()).toEqual(['2:16: environment variable SHOP_HOST is not set (${SHOP_HOST})']);
    const withHost = script('      - aiInput: the user field\n        value: ${SHOP_USER}\n', { SHOP_USER: 'alice ${x}', SHOP_HOST: 'shop.example' }, 'web:\n  url: https://${SHOP_HOST}/\n');
    const flow = withHost.load();
    expect(flow.target?.url).toBe('https://shop.example/');
    expect(flow.steps[0]).toMatchObject({ steps: [{ text: 'Type "alice $${x}" into the user field, replacing any text already there' }] });
  });
});

describe('what Sightline cannot run is refused before the run, by name and line', () => {
  it('phone targets and commands', () => {
    const path = join(folder, 'phone.yaml');
    writeFileSync(path, 'android:\n  deviceId: s4ey59\ntasks:\n  - name: shell\n    flow:\n      - runAdbShell: pm clear com.example\n      - launch: com.android.settings\n      - terminate: com.android.settings\n      - runWdaRequest: { method: GET, endpoint: /wda/screen }\n');
    expect(problemsOf(path)).toEqual([
      '1:1: android: Sightline drives a browser (web:) or this computer\'s desktop (computer:), not an Android device',
      '6:9: runAdbShell cannot run in Sightline: it runs commands on an Android device',
      '7:9: launch cannot run in Sightline: it starts an app on a phone',
      "8:9: terminate cannot run in Sightline: it force-stops an app on a phone (Midscene's Terminate action, by package name); it does not end the script, so remove it",
      "9:9: runWdaRequest cannot run in Sightline: it calls an iOS device's WebDriverAgent",
    ]);
  });

  it('unknown items and options with a did-you-mean, images, two actions in one item, and bad option values', () => {
    expect(
      script(
        [
          '      - aiTapp: the button',
          '      - aiTap: the button',
          '        deepthink: true',
          '      - aiAssert:',
          '          prompt: the logo shows',
          '          images: [ { name: logo, url: logo.png } ]',
          '      - aiTap: a',
          '        aiHover: b',
          '      - aiScroll:',
          '        direction: sideways',
          '      - sleep: soon',
          '',
        ].join('\n'),
      ).problems(),
    ).toEqual([
      '6:9: unknown Midscene flow item aiTapp; did you mean aiTap? (Sightline reads ai, aiAct, aiAction, aiTap, aiRightClick, aiDoubleClick, aiHover, aiInput, javascript, recordToReport, logScreenshot, aiClearInput, aiDragAndDrop, aiKeyboardPress, aiScroll, aiAssert, aiWaitFor, aiQuery, aiLocate, aiNumber, aiBoolean, aiString, aiAsk or sleep)',
      '8:9: unknown key deepthink for aiTap; did you mean deepThink? expected prompt, locate, fileChooserAccept, deepThink, deepLocate, cacheable, xpath, domIncluded, screenshotIncluded, useDom, autoDismissKeyboard, checkIntervalMs, errorMessage, aiActionProgressTip, aiActionProgressTips, planningStrategy, context or uiContext',
      '11:11: aiAssert images: prompting with images is not supported; describe the element in words',
      '13:9: a flow item has one action; this one has aiTap and aiHover',
      '15:20: direction: expected down, up, left or right, got the text "sideways"',
      '16:16: sleep: expected a number of milliseconds above 0, got the text "soon"',
    ]);
  });

  it('computer: is the desktop operator; a script needs exactly one target', () => {
    const path = join(folder, 'desktop.yaml');
    writeFileSync(path, 'computer: {}\ntasks:\n  - name: t\n    flow: [ { ai: open the calculator } ]\n');
    expect(loadFlowFile(path, { vars: {}, env: {} }).target).toEqual({ operator: 'desktop', at: { file: path, line: 1, column: 11 } });
    writeFileSync(path, 'web: { url: "https://a.example/" }\ncomputer: {}\ntasks:\n  - name: t\n    flow: [ { ai: x } ]\n');
    expect(problemsOf(path)).toEqual(['2:1: a Midscene script has one target; this one has web and computer']);
    writeFileSync(path, 'agent:\n  testId: x\n  aiActContext: close popups\ntasks:\n  - name: t\n    flow: [ { ai: x } ]\n');
    expect(problemsOf(path)).toEqual(['1:1: a Midscene script needs a target: web or computer']);
    // issue 35: aiActContext is the model's note for every step, under agent: or the target.
    writeFileSync(path, 'computer:\n  displayId: 2\nagent:\n  testId: x\n  aiActContext: close popups\ntasks:\n  - name: t\n    flow: [ { ai: x } ]\n');
    const flow = loadFlowFile(path, { vars: {}, env: {} });
    expect(flow.context).toBe('close popups');
    expect(flow.notes).toEqual([
      'computer displayId (line 2) is ignored: Sightline acts on the display its configuration names (perception.displayId)',
      "agent testId (line 4) is ignored: it tunes Midscene's own reports, caches or planning",
    ]);
  });
});

describe('readQueryShape', () => {
  it('reads the shapes Midscene scripts write, and leaves prose alone', () => {
    expect(readQueryShape('string[], the names')).toEqual({ schema: { type: 'array', items: { type: 'string' } }, request: 'the names' });
    expect(readQueryShape('number')).toEqual({ schema: { type: 'number' }, request: '' });
    expect(readQueryShape('{a: string}, first row')).toEqual({ schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, request: 'first row' });
    expect(readQueryShape('Array<{ "full name": string; age: integer | null }>: people')).toEqual({
      schema: { type: 'array', items: { type: 'object', properties: { 'full name': { type: 'string' }, age: { anyOf: [{ type: 'integer' }, { type: 'null' }] } }, required: ['full name', 'age'] } },
      request: 'people',
    });
    expect(readQueryShape('number of items in the cart')).toBeUndefined();
    expect(readQueryShape('the price')).toBeUndefined();
    expect(readQueryShape('{name: string, price: number')).toBeUndefined();
    expect(readQueryShape(`${'{a: '.repeat(100)}string${'}'.repeat(100)}`)).toBeUndefined();
  });
});

describe('issue 35: the web target options and the remaining items', () => {
  const web = (fields: string) => `web:\n  url: /index.html\n${fields}`;

  it('serve: a folder inside the script\'s own, on its real path; absolute paths, .. and symbolic links out are refused', () => {
    mkdirSync(join(folder, 'site'));
    const inside = script('      - ai: look\n', {}, web('  serve: ./site\n'));
    expect(inside.load().target).toMatchObject({ operator: 'browser', url: '/index.html', serve: realpathSync(join(folder, 'site')) });
    expect(script('      - ai: look\n', {}, web('  serve: /etc\n')).problems()).toEqual([
      "3:10: serve: /etc is an absolute path; give a folder inside the script's folder, relative to it",
    ]);
    expect(script('      - ai: look\n', {}, web('  serve: ../\n')).problems()).toEqual(["3:10: serve: ../ leads outside the script's folder; give a folder inside it"]);
    symlinkSync(tmpdir(), join(folder, 'escape'));
    expect(script('      - ai: look\n', {}, web('  serve: ./escape\n')).problems()).toEqual([
      "3:10: serve: ./escape leads outside the script's folder through a symbolic link; give a folder inside it",
    ]);
    expect(script('      - ai: look\n', {}, web('  serve: ./missing\n')).problems()).toEqual(["3:10: serve: ./missing does not exist (read relative to the script's folder)"]);
  });

  it('browser options become the browser settings; bad values are refused at their line', () => {
    writeFileSync(join(folder, 'cookies.json'), JSON.stringify([{ name: 'sid', value: 'v', domain: 'shop.example', path: '/', sameSite: 'Lax', size: 5 }]));
    const loaded = script(
      '      - ai: look\n',
      {},
      web('  viewportHeight: 700\n  viewportScale: 2\n  acceptInsecureCerts: true\n  cookie: ./cookies.json\n  extraHTTPHeaders: { X-Test: one, X-Number: 2 }\n  downloadPath: .\n'),
    ).load();
    expect(loaded.target?.browser).toEqual({
      viewport: { width: 1280, height: 700 },
      deviceScaleFactor: 2,
      acceptInsecureCerts: true,
      cookies: [{ name: 'sid', value: 'v', domain: 'shop.example', path: '/', sameSite: 'Lax' }],
      extraHTTPHeaders: { 'X-Test': 'one', 'X-Number': '2' },
      downloadPath: realpathSync(folder),
    });
    writeFileSync(join(folder, 'bad-cookies.json'), '{"name": "sid"}');
    expect(
      script('      - ai: look\n', {}, web('  viewportWidth: 20\n  deviceScaleFactor: 9\n  cookie: ./bad-cookies.json\n  extraHTTPHeaders: { "X Bad": one, X-Two: "a\\nb" }\n  chromeArgs: [--disable-web-security]\n')).problems(),
    ).toEqual([
      '3:18: viewportWidth: expected a whole number of pixels from 100 to 7680, got the number 20',
      '4:22: deviceScaleFactor: expected a number from 0.5 to 4, got the number 9',
      '5:11: cookie: the file is not a list of cookies: ✖ Invalid input: expected array, received object',
      '6:23: extraHTTPHeaders: X Bad is not a header name',
      '6:44: extraHTTPHeaders X-Two: a header value cannot hold a line break',
      "7:3: web chromeArgs cannot be applied: Sightline's browser starts with its own arguments, which keep its sandbox and URL scope; a script cannot change them; remove it",
    ]);
  });

  it('aiClearInput, aiDragAndDrop, the legacy nested locate form, and locate options inside locate:', () => {
    expect(
      stepsOf(
        [
          '      - aiClearInput: the search field',
          '      - aiClearInput: ""',
          '        locate: the email field',
          '      - aiDragAndDrop: the lamp',
          '        to: the cart',
          '      - aiDragAndDrop: { from: the first card, to: the done column }',
          '      - aiTap:',
          '          locate:',
          '            prompt: the Buy button',
          '            cacheable: false',
          '      - aiHover: ""',
          '        locate: { prompt: the menu, deepLocate: true }',
          '      - aiAct: buy the lamp',
          '        planningStrategy: fast',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      { label: 'aiClearInput', continueOnError: false, kind: 'do', text: 'Clear the search field' },
      { label: 'aiClearInput', continueOnError: false, kind: 'do', text: 'Clear the email field' },
      { label: 'aiDragAndDrop', continueOnError: false, kind: 'do', text: 'Drag the lamp and drop it onto the cart' },
      { label: 'aiDragAndDrop', continueOnError: false, kind: 'do', text: 'Drag the first card and drop it onto the done column' },
      { label: 'aiTap', continueOnError: false, kind: 'do', text: 'Click the Buy button' },
      { label: 'aiHover', continueOnError: false, kind: 'do', text: 'Move the mouse over the menu' },
      { label: 'aiAct', continueOnError: false, kind: 'do', text: 'buy the lamp' },
    ]);
    expect(script('      - aiAct: buy\n        planningStrategy: fast\n').load().notes).toEqual([
      "aiAct planningStrategy (line 7) is ignored: it picks Midscene's planner; Sightline's model plans each step itself",
    ]);
  });
});

describe('issue 35: javascript', () => {
  it('is a step that runs the code in the page, its name kept for later; refused on a computer: target', () => {
    expect(stepsOf('      - javascript: document.title\n        name: title\n')).toEqual([{ label: 'javascript', continueOnError: false, kind: 'javascript', code: 'document.title', as: 'title' }]);
    expect(script('      - javascript: document.title\n', {}, 'computer: {}\n').problems()).toEqual([
      '5:9: javascript cannot run on a computer: target: it runs in a browser page, and on the desktop Sightline acts only through the screen; use web:',
    ]);
  });
});

describe('issue 35: fileChooserAccept', () => {
  it('names files inside the script\'s folder; a path out of it is refused', () => {
    writeFileSync(join(folder, 'a.txt'), 'a');
    const [step] = stepsOf('      - aiTap: the upload button\n        fileChooserAccept: [ ./a.txt ]\n');
    expect(step).toEqual({ label: 'aiTap', continueOnError: false, kind: 'do', text: 'Click the upload button', files: [realpathSync(join(folder, 'a.txt'))] });
    expect(script('      - aiTap: the upload button\n        fileChooserAccept: /etc/passwd\n').problems()).toEqual([
      "7:28: fileChooserAccept: /etc/passwd is an absolute path; give a file inside the script's folder, relative to it",
    ]);
  });
});

describe('issue 35: recordToReport and logScreenshot', () => {
  it('are notes with a frame, no model: the title (untitled when empty), the content optional; ${NAME} read from the environment', () => {
    expect(stepsOf('      - recordToReport: after login\n        content: the cart for ${SHOPPER}\n      - logScreenshot: checkout\n      - recordToReport:\n', { SHOPPER: 'Ada' })).toEqual([
      { label: 'recordToReport', continueOnError: false, kind: 'note', title: 'after login', content: 'the cart for Ada' },
      { label: 'logScreenshot', continueOnError: false, kind: 'note', title: 'checkout', content: '' },
      { label: 'recordToReport', continueOnError: false, kind: 'note', title: 'untitled', content: '' },
    ]);
    expect(script('      - recordToReport: after login\n        contents: x\n').problems()).toEqual([
      expect.stringMatching(/^7:9: unknown key contents for recordToReport; did you mean content\?/),
    ]);
  });
});
