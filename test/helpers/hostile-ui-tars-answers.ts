/**
 * Hostile UI-TARS answers for the fuzz test: seeded, so a failure replays with its seed. Some are valid
 * answers in every form UI-TARS writes; most are not: truncated grammar, unknown actions, boxes off the
 * screen, non-numeric coordinates, megabyte strings, many actions in one answer, junk, unbalanced quotes
 * and think tags.
 */
import { seededRandom, type Random } from './hostile-model-replies.js';

const ACTIONS = ['click', 'left_double', 'right_single', 'drag', 'hotkey', 'type', 'scroll', 'wait', 'finished', 'call_user'];
const ODD_ACTIONS = ['long_press', 'open_app', 'press_home', 'navigate', 'press', 'CLICK', 'click_', '_', 'constructor', '__proto__', 'toString', 'x'.repeat(300)];
const ODD_NUMBERS = ['-1', '-5000', '1e400', 'NaN', 'Infinity', '99999999', '1e9', '0x10', '.5', '1.', '+3', '-0', '1,2,3', ''];
const ODD_KEYS = ['ctrl w', 'alt f4', 'ctrl alt delete', 'hyper', 'ctrl', 'f13', '+', 'ctrl++', 'a b c d e f', ' ', 'enter enter'];
const DIRECTIONS = ['down', 'up', 'left', 'right', 'sideways', '', 'DOWN', 'down or up'];
const PREFIXES = ['Thought: ', 'Reflection: fine\nAction_Summary: ', '<think>hmm</think>\nThought: ', '</think>Thought: ', '<think>', '```\nThought: ', ''];
const MARKERS = ['Action: ', 'Action：', 'Action:', 'action: ', 'Action ', ''];

export class HostileUiTarsAnswers {
  private readonly random: Random;

  constructor(
    seed: number,
    private readonly screen: { width: number; height: number },
    private readonly hugeStringChance = 0.004,
  ) {
    this.random = seededRandom(seed);
  }

  /** One answer's text. */
  answer(): string {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.05) return this.junk(random.integer(0, 300));
    if (roll < 0.08) return random.chance(0.5) ? 'Z'.repeat(random.integer(1, 2) * 1024 * 1024) : '';
    const count = roll < 0.75 ? 1 : roll < 0.93 ? random.integer(2, 6) : random.integer(20, 200);
    const actions = Array.from({ length: count }, () => this.action()).join(random.chance(0.8) ? '\n\n' : random.pick(['\n', ' ', '', ';']));
    const text = `${random.pick(PREFIXES)}${this.thought()}\n${random.pick(MARKERS)}${actions}`;
    return random.chance(0.15) ? text.slice(0, random.integer(0, text.length)) : text;
  }

  /**
   * An answer to a question: `finished(content=…)` holding JSON as UI-TARS writes it, often broken — quotes escaped
   * or not, braces in strings and around the object, cut short, fields of the wrong type, a megabyte of braces.
   */
  finishedAnswer(): string {
    const random = this.random;
    const pieces = [
      '{', '}', '[', ']', '"', "\\'", "'", ':', ',', ' ', '\\n', '\\"', '\\\\', 'true', 'false', 'null', '12.5', '"verdict"', '"value"',
      '"reason"', '"evidence"', '"img_000000000000"', '"It\\\'s shown"', '"{name}"', '{"amount": 12.5}', 'Here it is: ', ')',
    ];
    const roll = random.next();
    let content: string;
    if (roll < 0.3) {
      content = `{"${random.pick(['verdict', 'value', 'reason'])}": ${random.pick(['true', '"yes"', '{"amount": 12.5}', '[1', '"a}b"'])}, "reason": "${this.junk(random.integer(0, 30)).replace(/["'\\]/g, '')}", "evidence": ${random.pick(['[]', '["img_0"]', '"none"', '[{}]'])}}`;
    } else if (roll < 0.305) {
      content = random.pick(['{', '{"a":', '"']).repeat(random.integer(1, 2) * 512 * 1024);
    } else {
      content = Array.from({ length: random.integer(0, 40) }, () => random.pick(pieces)).join('');
    }
    if (random.chance(0.2)) content = content.slice(0, random.integer(0, content.length));
    return `Thought: ${this.junk(random.integer(0, 40))}\nAction: finished(content='${content}')`;
  }

  /** An answer that always runs a harmless valid action: a model stuck in a loop. */
  endlessAnswer(): string {
    return `Thought: again\nAction: click(start_box='(${this.random.integer(0, this.screen.width - 1)},${this.random.integer(0, this.screen.height - 1)})')`;
  }

  private action(): string {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.08) return `${random.pick(ODD_ACTIONS)}(${random.chance(0.5) ? `start_box='${this.box()}'` : ''})`;
    if (roll < 0.12) return this.junk(random.integer(1, 60));
    const name = random.pick(ACTIONS);
    switch (name) {
      case 'click':
      case 'left_double':
      case 'right_single':
        return `${name}(${random.pick(['start_box', 'point', 'start_point', 'box', 'end_box'])}='${this.box()}')`;
      case 'drag':
        return `drag(start_box='${this.box()}'${random.chance(0.85) ? `, end_box='${this.box()}'` : ''})`;
      case 'hotkey':
        return `hotkey(key='${random.chance(0.3) ? random.pick(ODD_KEYS) : random.pick(['ctrl c', 'enter', 'pagedown', 'arrowleft', 'tab', 'esc'])}')`;
      case 'type':
        return `type(content='${this.content()}')`;
      case 'scroll':
        return `scroll(start_box='${this.box()}', direction='${random.pick(DIRECTIONS)}')`;
      case 'finished':
        return random.chance(0.5) ? 'finished()' : `finished(content='${this.content()}')`;
      case 'wait':
        return random.chance(0.9) ? 'wait()' : 'wait(seconds=99999)';
      default:
        return 'call_user()';
    }
  }

  /** A point or box: mostly on the screen, often not, sometimes not numbers at all. */
  private box(): string {
    const random = this.random;
    const roll = random.next();
    const x = () => String(random.integer(0, this.screen.width - 1));
    const y = () => String(random.integer(0, this.screen.height - 1));
    const odd = () => random.pick(ODD_NUMBERS);
    if (roll < 0.35) return `(${x()},${y()})`;
    if (roll < 0.45) return `<|box_start|>(${x()},${y()})<|box_end|>`;
    if (roll < 0.55) return `[${x()}, ${y()}, ${x()}, ${y()}]`;
    if (roll < 0.6) return `<point>${x()} ${y()}</point>`;
    if (roll < 0.65) return `<bbox>${x()} ${y()} ${x()} ${y()}</bbox>`;
    if (roll < 0.8) return `(${random.chance(0.5) ? odd() : x()},${random.chance(0.5) ? odd() : y()})`;
    if (roll < 0.85) return `(${random.integer(-100000, 100000)},${random.integer(-100000, 100000)})`;
    if (roll < 0.9) return this.junk(random.integer(0, 30)).replace(/'/g, '');
    if (roll < 0.92) return '9'.repeat(random.chance(this.hugeStringChance * 25) ? 1024 * 1024 : 400);
    return `(${x()},${y()}`;
  }

  private content(): string {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.5) return this.junk(random.integer(0, 40)).replace(/\\$/, '') + (random.chance(0.3) ? '\\n' : '');
    if (roll < 0.6) return "it's \\'quoted\\' and \\\"double\\\"\\n";
    if (roll < 0.65) return 'B'.repeat(random.integer(10_001, 40_000));
    if (roll < 0.66 || random.chance(this.hugeStringChance)) return 'A'.repeat(random.integer(1, 3) * 1024 * 1024);
    return "')\n\nclick(start_box='(1,1)"; // a quote that ends the string early
  }

  private thought(): string {
    if (this.random.chance(this.hugeStringChance)) return 'T'.repeat(2 * 1024 * 1024);
    return this.junk(this.random.integer(0, 120));
  }

  junk(length: number): string {
    let text = '';
    for (let index = 0; index < length; index += 1) {
      const roll = this.random.next();
      text +=
        roll < 0.7
          ? String.fromCharCode(32 + Math.floor(this.random.next() * 95))
          : roll < 0.92
            ? "'\"()[]<>,=\\\n："[Math.floor(this.random.next() * 13)]
            : String.fromCharCode(Math.floor(this.random.next() * 0xd7ff));
    }
    return text;
  }
}
