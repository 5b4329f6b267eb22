/**
 * Hostile model output for the reliability fuzz test: a seeded generator of model replies and tool calls,
 * some valid and most not (broken JSON, wrong types, huge strings, unknown tools, points far off the
 * screen, NaN and Infinity spelled as JSON cannot hold them, nested junk, many calls in one reply).
 * The same seed gives the same sequence, so a failure replays with SIGHTLINE_FUZZ_SEED=<seed>.
 */
import type { FakeReply, FakeToolCall } from './fake-openai-server.js';

/** mulberry32: small, fast and good enough to spread test cases; deterministic per seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    integer: (low, high) => low + Math.floor(next() * (high - low + 1)),
    chance: (probability) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [low, high]. */
  integer(low: number, high: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export interface HostileOptions {
  /** The screenshot size the model is shown, so "valid" points can be generated inside it. */
  screen: { width: number; height: number };
  /** How often a huge (MB) string is generated; they are slow to move around, so keep it rare. */
  hugeStringChance?: number;
  /** The tools to call by name: the registry's own names, so a new tool is fuzzed too (the agent's built-ins unless given). */
  toolNames?: readonly string[];
}

const ACTIONS = ['click', 'double_click', 'right_click', 'move', 'drag', 'scroll', 'type', 'key', 'wait', 'screenshot'];
const BUILT_IN_TOOL_NAMES = ['computer', 'finish', 'ask_user', 'get_history_image', 'crop_image'];
const ODD_TOOL_NAMES = ['', ' ', 'computer ', 'COMPUTER', '__proto__', 'constructor', 'toString', 'rm_-rf', 'computer\u0000', 'ünïcødé', 'x'.repeat(300)];
/** JSON-ish numbers that are not ordinary numbers once parsed (1e400 parses to Infinity), or not JSON at all. */
const STRANGE_NUMBERS = ['1e400', '-1e400', 'NaN', 'Infinity', '-Infinity', '-0', '1e-400', '9007199254740993', '0x10', '.5', '1.', '+1'];
const FAR_NUMBERS = [-1, -0.0001, -1e9, 1e9, 1e308, -1e308, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 65536, 100000];
const ODD_VALUES: unknown[] = [null, true, false, 0, -1, '', '100', [], {}, [1, 2], { x: 1 }, 'click', 1.5, '💥'];
const KEYS = ['ctrl+w', 'alt+F4', 'Return', 'ctrl+alt+Delete', 'cmd+q', 'super', 'ctrl+shift+esc', 'a', 'F13', 'ctrl+', '++', 'Tab Tab Tab', 'ctrl+ctrl+ctrl'];

export class HostileReplies {
  private readonly random: Random;
  private readonly screen: { width: number; height: number };
  private readonly hugeStringChance: number;
  private readonly toolNames: readonly string[];
  private callNumber = 0;

  constructor(seed: number, options: HostileOptions) {
    this.random = seededRandom(seed);
    this.screen = options.screen;
    this.hugeStringChance = options.hugeStringChance ?? 0.004;
    this.toolNames = options.toolNames ?? BUILT_IN_TOOL_NAMES;
  }

  /** One model reply: usually one tool call, sometimes none, several or very many; rarely an HTTP error. */
  reply(): FakeReply {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.02) return { type: 'error', status: random.pick([400, 404, 422]), message: 'fuzzed model error' };
    if (roll < 0.06) return { type: 'answer', text: random.chance(0.5) ? '' : this.junkText(random.integer(1, 200)) };
    const count = roll < 0.8 ? 1 : roll < 0.95 ? random.integer(2, 6) : random.integer(20, 80);
    const toolCalls = Array.from({ length: count }, () => this.toolCall());
    return { type: 'answer', ...(random.chance(0.5) ? { text: this.junkText(random.integer(0, 80)) } : {}), toolCalls };
  }

  /** A reply that calls a harmless valid action: what a model stuck in a loop sends forever. */
  endlessReply(): FakeReply {
    return { type: 'answer', toolCalls: [this.named('computer', JSON.stringify(this.validAction()))] };
  }

  /** One tool call with hostile or valid arguments. */
  toolCall(): FakeToolCall {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.08) return this.named(random.pick(ODD_TOOL_NAMES), this.argumentsText());
    if (roll < 0.14) return this.named(this.junkText(random.integer(1, 20)).replace(/[^A-Za-z0-9_]/g, '_') || 'q', this.argumentsText());
    const name = random.chance(0.75) ? 'computer' : random.pick(this.toolNames);
    return this.named(name, name === 'computer' ? this.computerArgumentsText() : this.argumentsText());
  }

  private named(name: string, argumentsText: string): FakeToolCall {
    this.callNumber += 1;
    return { id: `call_fuzz_${this.callNumber}`, name, arguments: argumentsText, argumentPieces: this.random.integer(1, 4) };
  }

  /** Arguments for the computer tool: a third valid, the rest wrong in one of many ways. */
  computerArgumentsText(): string {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.3) return JSON.stringify(this.validAction());
    if (roll < 0.45) return JSON.stringify(this.farAction());
    if (roll < 0.55) return this.strangeNumberAction();
    if (roll < 0.65) return JSON.stringify(this.wrongTypeAction());
    if (roll < 0.72) return this.brokenJson(JSON.stringify(this.validAction()));
    if (roll < 0.78) return JSON.stringify({ ...this.validAction(), [this.junkText(5) || 'extra']: random.pick(ODD_VALUES) });
    if (roll < 0.82) return JSON.stringify({ action: 'type', text: this.maybeHugeString() });
    if (roll < 0.86) return JSON.stringify({ action: 'key', keys: random.chance(0.2) ? this.maybeHugeString() : random.pick(KEYS) });
    if (roll < 0.9) return this.nestedJunk();
    if (roll < 0.93) return '{"__proto__": {"action": "click", "x": 1, "y": 1}, "constructor": {"prototype": {"x": 5}}}';
    return this.argumentsText();
  }

  /** Anything at all as an arguments text. */
  argumentsText(): string {
    const random = this.random;
    switch (random.integer(0, 9)) {
      case 0:
        return '';
      case 1:
        return random.pick(['null', '42', '"text"', '[]', '[{}]', 'true', '{}', '{"summary": 7}', '{"id": null}']);
      case 2:
        return this.junkText(random.integer(1, 300));
      case 3:
        return this.brokenJson(JSON.stringify({ summary: 'done', success: true }));
      case 4:
        return JSON.stringify({ summary: random.pick(ODD_VALUES), success: random.pick(ODD_VALUES) });
      case 5:
        return JSON.stringify({ summary: this.junkText(random.integer(1, 100)), success: random.chance(0.5) });
      case 6:
        return JSON.stringify({ question: random.chance(0.3) ? this.maybeHugeString() : this.junkText(50) });
      case 7:
        return JSON.stringify({ [random.chance(0.8) ? 'image_id' : 'id']: random.pick(['img_000000000000', 'img_zzz', '../../etc/passwd', '', 'x'.repeat(500), 'img_' + this.junkText(12)]) });
      case 8:
        return JSON.stringify({ image_id: 'img_000000000000', x: random.pick(FAR_NUMBERS), y: -5, width: 1e9, height: random.pick(ODD_VALUES) });
      default:
        return this.nestedJunk();
    }
  }

  validAction(): Record<string, unknown> {
    const random = this.random;
    const x = random.integer(0, this.screen.width - 1);
    const y = random.integer(0, this.screen.height - 1);
    switch (random.pick(ACTIONS)) {
      case 'click':
        return { action: 'click', x, y };
      case 'double_click':
        return { action: 'double_click', x, y };
      case 'right_click':
        return { action: 'right_click', x, y };
      case 'move':
        return { action: 'move', x, y };
      case 'drag':
        return { action: 'drag', x, y, to_x: random.integer(0, this.screen.width - 1), to_y: random.integer(0, this.screen.height - 1) };
      case 'scroll':
        return { action: 'scroll', x, y, scroll_y: random.integer(-100, 100) };
      case 'type':
        return { action: 'type', text: this.junkText(random.integer(1, 40)) || 'a' };
      case 'key':
        return { action: 'key', keys: random.pick(['Return', 'Tab', 'a', 'shift+a', 'Escape']) };
      case 'wait':
        return { action: 'wait', seconds: random.integer(0, 60) };
      default:
        return { action: 'screenshot' };
    }
  }

  private farAction(): Record<string, unknown> {
    const random = this.random;
    const far = () => random.pick(FAR_NUMBERS);
    const near = () => random.integer(0, this.screen.width);
    const action = random.pick(['click', 'double_click', 'right_click', 'move', 'drag', 'scroll']);
    const [x, y] = random.chance(0.5) ? [far(), near()] : [near(), far()];
    return action === 'drag' ? { action, x: near(), y: near(), to_x: x, to_y: y } : { action, x, y };
  }

  private strangeNumberAction(): string {
    const random = this.random;
    const action = random.pick(['click', 'drag', 'scroll', 'wait', 'move']);
    const number = () => random.pick(STRANGE_NUMBERS);
    if (action === 'wait') return `{"action": "wait", "seconds": ${number()}}`;
    if (action === 'scroll') return `{"action": "scroll", "x": 10, "y": 10, "scroll_y": ${number()}}`;
    if (action === 'drag') return `{"action": "drag", "x": 1, "y": 1, "to_x": ${number()}, "to_y": ${number()}}`;
    return `{"action": "${action}", "x": ${number()}, "y": ${number()}}`;
  }

  private wrongTypeAction(): Record<string, unknown> {
    const random = this.random;
    const action = random.chance(0.2) ? random.pick(ODD_VALUES) : random.pick(ACTIONS);
    return {
      action,
      x: random.pick(ODD_VALUES),
      y: random.pick(ODD_VALUES),
      ...(random.chance(0.5) ? { text: random.pick(ODD_VALUES) } : {}),
      ...(random.chance(0.5) ? { keys: random.pick(ODD_VALUES) } : {}),
      ...(random.chance(0.3) ? { seconds: random.pick(ODD_VALUES) } : {}),
    };
  }

  private brokenJson(valid: string): string {
    const random = this.random;
    switch (random.integer(0, 4)) {
      case 0:
        return valid.slice(0, random.integer(0, Math.max(0, valid.length - 1)));
      case 1:
        return valid.replace(/"/g, "'");
      case 2:
        return `${valid},`;
      case 3:
        return valid.replace(':', '');
      default:
        return `${valid}${valid}`;
    }
  }

  private nestedJunk(): string {
    const depth = this.random.integer(10, 3000);
    const open = this.random.chance(0.5) ? '[' : '{"a":';
    const close = open === '[' ? ']' : '}';
    const closed = this.random.chance(0.7);
    return `${open.repeat(depth)}1${closed ? close.repeat(depth) : ''}`;
  }

  private maybeHugeString(): string {
    if (this.random.chance(this.hugeStringChance * 25)) return 'A'.repeat(this.random.integer(1, 3) * 1024 * 1024);
    return 'B'.repeat(this.random.integer(10_001, 60_000));
  }

  junkText(length: number): string {
    let text = '';
    for (let index = 0; index < length; index += 1) {
      const roll = this.random.next();
      text += roll < 0.7 ? String.fromCharCode(32 + Math.floor(this.random.next() * 95)) : roll < 0.9 ? '"{}[]\\,:'[Math.floor(this.random.next() * 8)] : String.fromCharCode(Math.floor(this.random.next() * 0xd7ff));
    }
    return text;
  }
}

const OPENAI_ACTION_TYPES = ['click', 'double_click', 'drag', 'keypress', 'move', 'screenshot', 'scroll', 'type', 'wait'];
const ODD_ACTION_TYPES = ['teleport', 'triple_click', 'key', 'left_click', '', 'CLICK', 'click ', '__proto__', 'constructor'];
const OPENAI_KEYS = ['CTRL', 'W', 'ALT', 'F4', 'ENTER', 'ARROWLEFT', 'ESC', ' ', '+', 'HYPER', '', 'ctrl+w', 'SHIFT', 'CMD', 'Q', 'DELETE'];
const BUTTONS: unknown[] = ['left', 'right', 'wheel', 'back', 'forward', 'middle', null, 3, ''];

/**
 * Hostile `computer_call` items of OpenAI's computer tool (the openai-computer dialect), as a Responses
 * answer would carry them: valid actions, batches, unknown action types, missing fields, points far off
 * the screen, numbers that are not numbers, megabyte strings, long batches, missing ids, junk safety checks.
 */
export class HostileComputerCalls {
  private readonly random: Random;
  private readonly junk: HostileReplies;
  private callNumber = 0;

  constructor(
    seed: number,
    private readonly options: { screen: { width: number; height: number }; hugeStringChance?: number },
  ) {
    this.random = seededRandom(seed);
    this.junk = new HostileReplies(seed ^ 0x0a1c, { screen: options.screen, ...(options.hugeStringChance === undefined ? {} : { hugeStringChance: options.hugeStringChance }) });
  }

  /** One answer: usually one computer call (sometimes with reasoning before it), sometimes several, text or an error. */
  reply(): FakeReply {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.02) return { type: 'error', status: random.pick([400, 422]), message: 'fuzzed model error' };
    if (roll < 0.07) return { type: 'answer', text: this.junk.junkText(random.integer(0, 120)) };
    const count = roll < 0.85 ? 1 : random.integer(2, 5);
    const items = Array.from({ length: count }, () => this.item()).flatMap((item) =>
      random.chance(0.3) ? [{ type: 'raw' as const, item: { id: `rs_fuzz_${this.callNumber}`, type: 'reasoning', summary: [], encrypted_content: random.chance(0.8) ? 'gAAAA-fuzz' : null } }, { type: 'raw' as const, item }] : [{ type: 'raw' as const, item }],
    );
    return { type: 'answer', responsesItems: items, ...(random.chance(0.2) ? { text: this.junk.junkText(random.integer(0, 40)) } : {}) };
  }

  /** A computer call that does something harmless: what a looping model sends forever. */
  endlessReply(): FakeReply {
    return { type: 'answer', responsesItems: [{ type: 'raw', item: this.callItem({ type: 'move', ...this.point() }, undefined, false) }] };
  }

  /** One computer_call output item, most of it wrong in one way or another. */
  item(): Record<string, unknown> {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.3) return this.callItem(this.validAction());
    if (roll < 0.4) return this.callItem(undefined, Array.from({ length: random.integer(2, 6) }, () => this.validAction()));
    if (roll < 0.45) return this.callItem(undefined, Array.from({ length: random.integer(21, 400) }, () => this.validAction()));
    if (roll < 0.55) return this.callItem({ ...this.validAction(), x: this.far(), y: this.far() });
    if (roll < 0.62) return this.callItem({ type: random.pick(OPENAI_ACTION_TYPES), x: random.pick(ODD_VALUES), y: random.pick(ODD_VALUES), button: random.pick(BUTTONS), keys: random.pick(ODD_VALUES) });
    if (roll < 0.67) return this.callItem({ type: random.pick(ODD_ACTION_TYPES), x: 1, y: 1 });
    if (roll < 0.71) return this.callItem({ type: 'type', text: random.chance(0.5) ? 'A'.repeat(random.integer(1, 2) * 1024 * 1024) : 'B'.repeat(10_001) });
    if (roll < 0.75) return this.callItem({ type: 'drag', path: random.chance(0.5) ? [] : Array.from({ length: random.integer(1, 300) }, () => ({ x: this.far(), y: random.pick(ODD_VALUES) })) });
    if (roll < 0.8) return this.callItem({ type: 'keypress', keys: random.chance(0.2) ? 'CTRL+W' : Array.from({ length: random.integer(0, 14) }, () => random.pick(OPENAI_KEYS)) });
    if (roll < 0.83) return this.callItem({ type: 'scroll', x: 10, y: 10, scroll_x: random.pick(ODD_VALUES), scroll_y: random.pick([1e308, -1e308, 0, 'down', null]) });
    if (roll < 0.86) return { ...this.callItem(this.validAction()), call_id: random.pick([undefined, '', null, 7]) };
    if (roll < 0.89) return { ...this.callItem(this.validAction()), pending_safety_checks: random.pick(ODD_VALUES) };
    if (roll < 0.91) return { ...this.callItem(undefined), action: random.pick([null, 'click', [], 42]) };
    if (roll < 0.93) return { ...this.callItem(this.validAction()), actions: [this.validAction()] };
    if (roll < 0.95) return { type: 'computer_call' };
    return this.callItem({ type: 'click', button: 'left', ...this.point(), keys: ['SHIFT'] });
  }

  private callItem(action: Record<string, unknown> | undefined, actions?: Array<Record<string, unknown>>, withChecks = true): Record<string, unknown> {
    this.callNumber += 1;
    const checks = withChecks && this.random.chance(0.15)
      ? Array.from({ length: this.random.integer(1, this.random.chance(0.2) ? 40 : 2) }, (_, index) => ({ id: `cu_sc_${this.callNumber}_${index}`, code: 'malicious_instructions', message: this.random.chance(0.1) ? 'M'.repeat(6_000) : 'acknowledge this' }))
      : [];
    return {
      id: `cu_fuzz_${this.callNumber}`,
      type: 'computer_call',
      call_id: `call_fuzz_${this.callNumber}`,
      ...(action === undefined ? {} : { action }),
      ...(actions === undefined ? {} : { actions }),
      pending_safety_checks: checks,
      status: 'completed',
    };
  }

  private validAction(): Record<string, unknown> {
    const random = this.random;
    switch (random.pick(OPENAI_ACTION_TYPES)) {
      case 'click':
        return { type: 'click', button: random.pick(['left', 'right', 'wheel']), ...this.point() };
      case 'double_click':
        return { type: 'double_click', ...this.point(), keys: null };
      case 'drag':
        return { type: 'drag', path: [this.point(), this.point(), ...(random.chance(0.3) ? [this.point()] : [])] };
      case 'keypress':
        return { type: 'keypress', keys: random.pick([['ENTER'], ['TAB'], ['A'], ['SHIFT', 'A'], ['ESC']]) };
      case 'move':
        return { type: 'move', ...this.point() };
      case 'scroll':
        return { type: 'scroll', ...this.point(), scroll_x: 0, scroll_y: random.integer(-2000, 2000) };
      case 'type':
        return { type: 'type', text: this.junk.junkText(random.integer(1, 30)) || 'a' };
      case 'wait':
        return { type: 'wait' };
      default:
        return { type: 'screenshot' };
    }
  }

  private point(): { x: number; y: number } {
    return { x: this.random.integer(0, this.options.screen.width - 1), y: this.random.integer(0, this.options.screen.height - 1) };
  }

  private far(): number {
    return this.random.pick(FAR_NUMBERS);
  }
}

const QWEN_ACTIONS = ['key', 'type', 'mouse_move', 'left_click', 'left_click_drag', 'right_click', 'middle_click', 'double_click', 'triple_click', 'scroll', 'hscroll', 'wait', 'terminate', 'answer'];
const QWEN_ODD_ACTIONS = ['swipe', 'click', 'LEFT_CLICK', 'left_click ', '', 'screenshot', 'long_press', '__proto__', 'open'];
const QWEN_ODD_COORDINATES: unknown[] = [[], [1], [1, 2, 3], ['500', '300'], [null, 1], [true, false], '[10, 20]', { x: 1, y: 2 }, 500, [[1, 2]], [Number.NaN, 1]];
const QWEN_KEYS: unknown[] = [['ctrl', 'w'], ['alt', 'F4'], ['Return'], ['ctrl', 's'], ['super'], ['ctrl', ''], [' '], 'ctrl+c', [], [1, 2], ['F13'], ['pgdn'], Array.from({ length: 20 }, () => 'a')];

/**
 * Hostile answers in Qwen's computer_use dialect: `<tool_call>` text (truncated tags and JSON, unknown
 * actions, points off the screen or not numbers, megabyte strings, many blocks in one answer, deep nesting)
 * and native computer_use calls with the same arguments. Same seed, same sequence.
 */
export class HostileQwenReplies {
  private readonly random: Random;
  private readonly junk: HostileReplies;
  private readonly screen: { width: number; height: number };
  private readonly hugeStringChance: number;
  private callNumber = 0;

  constructor(seed: number, options: HostileOptions) {
    this.random = seededRandom(seed);
    this.junk = new HostileReplies(seed ^ 0x9e3779b9, options);
    this.screen = options.screen;
    this.hugeStringChance = options.hugeStringChance ?? 0.004;
  }

  /** One answer: mostly `<tool_call>` text, some native calls, rarely an HTTP error or no call at all. */
  reply(): FakeReply {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.02) return { type: 'error', status: random.pick([400, 422, 500]), message: 'fuzzed model error' };
    if (roll < 0.06) return { type: 'answer', text: this.junk.junkText(random.integer(0, 120)) };
    if (roll < 0.3) {
      const count = random.chance(0.85) ? 1 : random.integer(2, 8);
      const toolCalls = Array.from({ length: count }, () => {
        this.callNumber += 1;
        const name = random.chance(0.9) ? 'computer_use' : random.pick(['mobile_use', 'computer', 'finish', 'ask_user', 'answer']);
        return { id: `chatcmpl-tool-fuzz${this.callNumber}`, name, arguments: this.argumentsText(), argumentPieces: random.integer(1, 4), ...(random.chance(0.3) ? { wholeInOneChunk: true } : {}) };
      });
      return { type: 'answer', ...(random.chance(0.4) ? { text: this.junk.junkText(random.integer(0, 60)) } : {}), toolCalls };
    }
    return { type: 'answer', text: this.text(), ...(random.chance(0.1) ? { truncated: true } : {}) };
  }

  /** A harmless valid action, as text: what a model stuck in a loop sends forever. */
  endlessReply(): FakeReply {
    return { type: 'answer', text: `<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: this.validArguments() })}\n</tool_call>` };
  }

  /** The content of one answer without a tool parser. */
  text(): string {
    const random = this.random;
    const roll = random.next();
    const count = roll < 0.75 ? 1 : roll < 0.93 ? random.integer(2, 8) : roll < 0.99 ? random.integer(20, 80) : random.integer(1000, 5000);
    const blocks = Array.from({ length: count }, () => this.block());
    const thought = random.chance(0.6) ? `${this.junk.junkText(random.integer(0, 80))}\n` : '';
    const between = random.pick(['\n', '', ' ', '\n\n', `\n${this.junk.junkText(5)}\n`]);
    return `${thought}${blocks.join(between)}`;
  }

  private block(): string {
    const random = this.random;
    const name = random.chance(0.9) ? 'computer_use' : random.pick(['mobile_use', '', 'Computer_Use', 'x'.repeat(300), 'ask_user']);
    const json = random.chance(0.1) ? this.junk.argumentsText() : `{"name": ${JSON.stringify(name)}, "arguments": ${random.chance(0.1) ? JSON.stringify(this.argumentsText()) : this.argumentsText()}}`;
    switch (random.integer(0, 9)) {
      case 0:
        return `<tool_call>\n${json.slice(0, random.integer(0, json.length))}`;
      case 1:
        return `<tool_call>${json}`;
      case 2:
        return random.pick(['<tool_', '</tool_call>', '<tool_call></tool_call>', '<tool_call><tool_call>', `</tool_call>${json}<tool_call>`]);
      default:
        return `<tool_call>\n${json}\n</tool_call>`;
    }
  }

  /** Arguments of computer_use: a third valid, the rest wrong in one of many ways. */
  argumentsText(): string {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.35) return JSON.stringify(this.validArguments());
    if (roll < 0.45) return JSON.stringify({ action: random.pick(['left_click', 'mouse_move', 'double_click', 'left_click_drag', 'scroll']), coordinate: this.farPoint() });
    if (roll < 0.55) return `{"action": "${random.pick(['left_click', 'mouse_move', 'scroll'])}", "coordinate": [${random.pick(STRANGE_NUMBERS)}, ${random.pick(STRANGE_NUMBERS)}], "pixels": ${random.pick(STRANGE_NUMBERS)}}`;
    if (roll < 0.63) return JSON.stringify({ action: random.pick(QWEN_ACTIONS), coordinate: random.pick(QWEN_ODD_COORDINATES), keys: random.pick(QWEN_KEYS), pixels: random.pick(ODD_VALUES), time: random.pick(ODD_VALUES), status: random.pick(ODD_VALUES) });
    if (roll < 0.7) return JSON.stringify({ action: random.pick(QWEN_ODD_ACTIONS), coordinate: [1, 1] });
    if (roll < 0.75) return JSON.stringify({ action: random.pick(['type', 'answer']), text: this.maybeHugeString() });
    if (roll < 0.8) return JSON.stringify({ action: 'key', keys: random.pick(QWEN_KEYS) });
    if (roll < 0.85) return JSON.stringify({ action: random.pick(['scroll', 'hscroll']), pixels: random.pick([...FAR_NUMBERS, 0, 0.4, -0.6]) });
    if (roll < 0.9) return JSON.stringify({ action: 'wait', time: random.pick([...FAR_NUMBERS, 0, 61, 0.5]) });
    return this.junk.argumentsText();
  }

  private validArguments(): Record<string, unknown> {
    const random = this.random;
    const point = [random.integer(0, this.screen.width - 1), random.integer(0, this.screen.height - 1)];
    switch (random.pick(QWEN_ACTIONS.filter((action) => action !== 'terminate' && action !== 'answer'))) {
      case 'key':
        return { action: 'key', keys: random.pick([['Return'], ['Tab'], ['shift', 'a'], ['Escape']]) };
      case 'type':
        return { action: 'type', text: this.junk.junkText(random.integer(1, 30)) || 'a' };
      case 'scroll':
      case 'hscroll':
        return { action: random.pick(['scroll', 'hscroll']), pixels: random.integer(-800, 800), ...(random.chance(0.5) ? { coordinate: point } : {}) };
      case 'wait':
        return { action: 'wait', time: random.integer(0, 2) };
      case 'left_click_drag':
        return { action: 'left_click_drag', coordinate: point };
      default:
        return { action: random.pick(['mouse_move', 'left_click', 'right_click', 'middle_click', 'double_click', 'triple_click']), ...(random.chance(0.8) ? { coordinate: point } : {}) };
    }
  }

  private farPoint(): number[] {
    const random = this.random;
    const near = random.integer(0, this.screen.width - 1);
    const far = random.pick(FAR_NUMBERS);
    return random.chance(0.5) ? [far, near] : [near, far];
  }

  private maybeHugeString(): string {
    if (this.random.chance(this.hugeStringChance * 25)) return 'A'.repeat(this.random.integer(1, 3) * 1024 * 1024);
    return 'B'.repeat(this.random.integer(10_001, 60_000));
  }
}
