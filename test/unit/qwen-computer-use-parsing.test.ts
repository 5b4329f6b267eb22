/**
 * Qwen's computer_use answers, as real ones are written (test/fixtures/qwen, each case citing its source),
 * read from the text and translated: each must become the computer action, the end of the turn, the
 * refusal or the malformed answer its case names.
 */
import { describe, expect, it } from 'vitest';
import { invalidArgumentsMessage } from '../../src/main/agent/malformed-output.js';
import { QWEN_COMPUTER_USE_PARAMETERS, QwenComputerUseArgumentsSchema } from '../../src/main/agent/tools/qwen-computer-use-arguments.js';
import { notchesOf, translateQwenAction } from '../../src/main/agent/tools/qwen-computer-use-translation.js';
import { MAX_TEXT_CALLS_PER_REPLY, readToolCallText, writeToolCallText } from '../../src/main/llm/dialects/qwen-tool-call-text.js';
import { QWEN_OUTPUT_CASES, type ExpectedCall } from '../fixtures/qwen/computer-use-outputs.js';

const CENTRE = { x: 500, y: 500 };

describe('Qwen computer_use answers, read and translated', () => {
  it.each(QWEN_OUTPUT_CASES)('$name ($source)', (outputCase) => {
    const read = readToolCallText(outputCase.text);
    expect(read.thought).toBe(outputCase.thought);
    expect(read.calls.map((call) => call.inText)).toEqual(outputCase.calls.map(() => true));
    expect(read.calls.map((call) => outcomeOf(call, outputCase.pointer))).toEqual(outputCase.calls.map(expectation));
  });

  it('gives every call of an answer its own id', () => {
    const { calls } = readToolCallText(QWEN_OUTPUT_CASES.find((outputCase) => outputCase.calls.length === 3)!.text);
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
  });

  it('reads arguments written as a JSON string, and a block without arguments as {}', () => {
    const { calls } = readToolCallText(
      '<tool_call>{"name": "computer_use", "arguments": "{\\"action\\": \\"wait\\", \\"time\\": 1}"}</tool_call><tool_call>{"name": "ask_user"}</tool_call>',
    );
    expect(calls.map((call) => [call.name, call.argumentsText, call.invalid])).toEqual([
      ['computer_use', '{"action": "wait", "time": 1}', undefined],
      ['ask_user', '{}', undefined],
    ]);
  });

  it('says what is wrong with blocks it cannot read, and keeps them as written', () => {
    const cases: Array<[string, string]> = [
      ['<tool_call></tool_call>', 'is empty'],
      ['<tool_call>', 'cut off before any JSON'],
      ['<tool_call>[1, 2]</tool_call>', 'one JSON object'],
      ['<tool_call>{"arguments": {}}</tool_call>', 'no "name"'],
      ['<tool_call>{"name": "computer_use", "arguments": [1]}</tool_call>', 'must be a JSON object'],
      ['<tool_call>{"name": "computer_use", "arguments": "not json"}</tool_call>', 'must be a JSON object'],
      ["<tool_call>{'name': 'computer_use'}</tool_call>", 'is not valid'],
    ];
    for (const [text, problem] of cases) {
      const [call] = readToolCallText(text).calls;
      expect(call?.invalid, text).toContain(problem);
      expect(call?.invalid, text).toContain('<tool_call>{"name": "computer_use"');
      expect(call?.argumentsText, text).toBe(text);
    }
  });

  it('reads a block that the next block interrupts as cut off there', () => {
    const text = '<tool_call>{"name": "computer_use", "arguments": {"action": "wait"}}\n<tool_call>{"name": "computer_use", "arguments": {"action": "type", "text": "a"}}</tool_call>';
    const { calls } = readToolCallText(text);
    expect(calls.map((call) => call.argumentsText)).toEqual(['{"action": "wait"}', '{"action": "type", "text": "a"}']);
  });

  it(`reads at most ${MAX_TEXT_CALLS_PER_REPLY} blocks of one answer, and says so in one more call`, () => {
    const block = '<tool_call>{"name": "computer_use", "arguments": {"action": "wait"}}</tool_call>';
    const { calls } = readToolCallText(block.repeat(MAX_TEXT_CALLS_PER_REPLY + 10));
    expect(calls).toHaveLength(MAX_TEXT_CALLS_PER_REPLY + 1);
    expect(calls.slice(0, -1).every((call) => call.invalid === undefined)).toBe(true);
    expect(calls.at(-1)!.invalid).toContain(`only the first ${MAX_TEXT_CALLS_PER_REPLY} were read`);
    expect(calls.at(-1)!.argumentsText).toBe(block.repeat(10));
  });

  it('refuses arguments nested deeper than any real call, without overflowing the stack', () => {
    const deep = `<tool_call>{"name": "computer_use", "arguments": {"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}</tool_call>`;
    expect(readToolCallText(deep).calls[0]!.invalid).toContain('nested more than');
  });

  it('reads a megabyte of unclosed tags in linear time', () => {
    const started = performance.now();
    const { calls } = readToolCallText('<tool_call>'.repeat(100_000));
    expect(calls).toHaveLength(MAX_TEXT_CALLS_PER_REPLY + 1);
    expect(performance.now() - started).toBeLessThan(2000);
    const started2 = performance.now();
    readToolCallText(`${'<tool_call>x'.repeat(90_000)}</tool_call>`);
    expect(performance.now() - started2).toBeLessThan(2000);
  });

  it('writes the calls back as Qwen\'s template would have: the thought, then one block per call, its JSON spaced as tojson writes it', () => {
    const text = 'Action: Save.\n<tool_call>\n{"name":"computer_use","arguments":{"action":"key","keys":["ctrl","s"],"note":"é"}}\n</tool_call>';
    const { thought, calls } = readToolCallText(text);
    expect(writeToolCallText(thought, calls)).toBe(
      'Action: Save.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "key", "keys": ["ctrl", "s"], "note": "é"}}\n</tool_call>',
    );
    const broken = readToolCallText('<tool_call>{"name": "computer_use", "arguments": {"action": ');
    expect(writeToolCallText(broken.thought, broken.calls)).toBe('<tool_call>{"name": "computer_use", "arguments": {"action": ');
  });
});

describe('scroll distance', () => {
  it('turns Qwen pixels into wheel notches of 100 px, at least one, at most 100, up for positive', () => {
    expect([0, 1, -30, 149, 150, -500, 1e9, -1e9].map(notchesOf)).toEqual([0, 1, -1, 1, 2, -5, 100, -100]);
  });
});

describe('key names', () => {
  it('writes a space key and names with spaces as one key each', () => {
    const translate = (keys: string[]) => translateQwenAction({ action: 'key', keys }, { pointer: undefined, centre: CENTRE });
    expect(translate(['ctrl', ' '])).toEqual({ kind: 'act', action: { action: 'key', keys: 'ctrl+space' } });
    expect(translate(['page down'])).toEqual({ kind: 'act', action: { action: 'key', keys: 'page_down' } });
    expect(translate(['ctrl', '+'])).toEqual({ kind: 'act', action: { action: 'key', keys: 'ctrl++' } });
    expect(translate(['   '])).toMatchObject({ kind: 'refuse' });
  });
});

type Outcome =
  | { act: unknown }
  | { end: unknown }
  | { refuse: string }
  | { invalid: string }
  | { schemaError: string }
  | { unknownTool: string };

/** What one read call comes to, in the fixture's terms; strings are compared by containment. */
function outcomeOf(call: ReturnType<typeof readToolCallText>['calls'][number], pointer: { x: number; y: number } | undefined): Outcome {
  if (call.invalid !== undefined) return { invalid: call.invalid };
  if (call.name !== 'computer_use') return { unknownTool: call.name };
  const value = JSON.parse(call.argumentsText) as unknown;
  const parsed = QwenComputerUseArgumentsSchema.safeParse(value);
  if (!parsed.success) return { schemaError: invalidArgumentsMessage('computer_use', parsed.error, value, QWEN_COMPUTER_USE_PARAMETERS) };
  const step = translateQwenAction(parsed.data, { pointer, centre: CENTRE });
  if (step.kind === 'act') return { act: step.action };
  if (step.kind === 'end') return { end: { status: step.status, summary: step.summary } };
  return { refuse: step.message };
}

function expectation(expected: ExpectedCall): unknown {
  if ('refuse' in expected) return { refuse: expect.stringContaining(expected.refuse) };
  if ('invalid' in expected) return { invalid: expect.stringContaining(expected.invalid) };
  if ('schemaError' in expected) return { schemaError: expect.stringContaining(expected.schemaError) };
  return expected;
}
