/** `${…}` templates of flow files (issue 25): what the runner renders each step's text with. */
import { describe, expect, it } from 'vitest';
import { readDuration } from '../../src/shared/durations.js';
import {
  escapeTemplateText,
  parseTemplate,
  renderTemplate,
  soleReference,
  TemplateError,
  templateReferences,
  templateValue,
} from '../../src/main/flows/templates.js';

const scope = {
  fruit: 'apple',
  count: 3,
  paid: false,
  nothing: null,
  total: { amount: 12.5, currency: 'EUR' },
  items: [{ name: 'pear', tags: ['ripe'] }, { name: 'plum' }],
};

describe('renderTemplate', () => {
  it('renders strings as they are, numbers and booleans with String(), null, objects and arrays as JSON', () => {
    expect(renderTemplate('${fruit} x${count} paid=${paid} ${nothing}', scope, { secrets: [] })).toBe('apple x3 paid=false null');
    expect(renderTemplate('Total: ${total}', scope, { secrets: [] })).toBe('Total: {"amount":12.5,"currency":"EUR"}');
    expect(renderTemplate('${items.1}', scope, { secrets: [] })).toBe('{"name":"plum"}');
  });

  it('follows fields and indexes, written either way, with spaces allowed inside the braces', () => {
    expect(renderTemplate('${total.amount} ${items.0.name} ${items[1].name} ${ items[0].tags[0] }', scope, { secrets: [] })).toBe('12.5 pear plum ripe');
  });

  it('renders a secret as {{NAME}}, never its value, whatever the scope holds', () => {
    expect(renderTemplate('Type ${SHOP_PASSWORD} then ${fruit}', { ...scope, SHOP_PASSWORD: 'hunter2' }, { secrets: ['SHOP_PASSWORD'] })).toBe('Type {{SHOP_PASSWORD}} then apple');
    expect(renderTemplate('${TOKEN}', {}, { secrets: new Set(['TOKEN']) })).toBe('{{TOKEN}}');
    expect(() => renderTemplate('${TOKEN.x}', {}, { secrets: ['TOKEN'] })).toThrow('${TOKEN.x}: TOKEN is a secret, a text without fields');
  });

  it('keeps $${ as a literal ${, and escapeTemplateText makes any text render as itself', () => {
    expect(renderTemplate('cost $${fruit} is ${fruit}', scope, { secrets: [] })).toBe('cost ${fruit} is apple');
    for (const text of ['${fruit}', 'a $${b} c', '$$${x}', 'plain', '${', '}${']) {
      expect(renderTemplate(escapeTemplateText(text), scope, { secrets: [] })).toBe(text);
    }
  });

  it('throws a TemplateError naming what has no value', () => {
    expect(() => renderTemplate('${fruits}', scope, { secrets: [] })).toThrow(new TemplateError('${fruits}: fruits has no value'));
    expect(() => renderTemplate('${total.price}', scope, { secrets: [] })).toThrow('${total.price}: total has no field price (it is an object)');
    expect(() => renderTemplate('${items.5.name}', scope, { secrets: [] })).toThrow('${items.5.name}: items has no item 5 (it is an array of 2)');
    expect(() => renderTemplate('${fruit.0}', scope, { secrets: [] })).toThrow('${fruit.0}: fruit has no item 0 (it is a string)');
    expect(() => renderTemplate('${toString}', scope, { secrets: [] })).toThrow('${toString}: toString has no value');
  });

  it('throws for a malformed reference instead of sending it to the model', () => {
    expect(() => renderTemplate('a ${fruit', scope, { secrets: [] })).toThrow('${fruit has no closing }; write $${ for a literal ${');
    expect(() => renderTemplate('${1abc}', scope, { secrets: [] })).toThrow(TemplateError);
    expect(() => renderTemplate('${fruit..x}', scope, { secrets: [] })).toThrow(TemplateError);
    expect(() => renderTemplate('${}', scope, { secrets: [] })).toThrow(TemplateError);
  });
});

describe('templateReferences and the single-reference forms', () => {
  it('lists each well-formed reference with its place, root and path', () => {
    expect(templateReferences('Open ${item.name} in ${env.HOME}, $${not} ${bad-}')).toEqual([
      { raw: '${item.name}', start: 5, end: 17, root: 'item', path: ['name'] },
      { raw: '${env.HOME}', start: 21, end: 32, root: 'env', path: ['HOME'] },
    ]);
    expect(parseTemplate('x ${bad-} y').problems).toEqual([
      { start: 2, message: '${bad-} is not a reference; expected a name like ${total}, ${item.name} or ${env.HOME} (write $${ for a literal ${)' },
    ]);
  });

  it('cuts a long malformed reference in its message', () => {
    const [problem] = parseTemplate(`\${${'x'.repeat(5000)}`).problems;
    expect(problem?.message.length).toBeLessThan(120);
  });

  it('soleReference and templateValue take exactly one reference, and give the value unrendered', () => {
    expect(soleReference('${items}')?.root).toBe('items');
    expect(soleReference('${items} and more')).toBeUndefined();
    expect(templateValue('${items}', scope)).toBe(scope.items);
    expect(templateValue('${items.0.tags}', scope)).toEqual(['ripe']);
    expect(() => templateValue('all ${items}', scope)).toThrow('all ${items} is not a single reference like ${items}');
  });
});

describe('durations', () => {
  it('reads 500ms, 30s, 1.5m, 2h and a number of milliseconds', () => {
    expect(['500ms', '30s', '1.5m', '2h', ' 10 s ', 250, 0.4].map((value) => readDuration(value, { allowZero: false }))).toEqual(
      [500, 30_000, 90_000, 7_200_000, 10_000, 250, 0].map((ms) => ({ ok: true, ms })),
    );
  });

  it('refuses a string without a unit, negatives, zero where it cannot succeed, and more than a day', () => {
    const forms = '500ms, 30s, 1.5m, 2h or a number of milliseconds';
    expect(readDuration('30', { allowZero: false })).toEqual({ ok: false, problem: '30 has no unit, and one author means seconds where another means milliseconds: write 30s or 30ms' });
    expect(readDuration('30 sec', { allowZero: false })).toEqual({ ok: false, problem: `expected a duration (${forms})` });
    expect(readDuration(-1, { allowZero: true })).toEqual({ ok: false, problem: `expected a duration of 0 or more (${forms})` });
    expect(readDuration(0, { allowZero: false })).toEqual({ ok: false, problem: 'expected a duration above 0' });
    expect(readDuration(0, { allowZero: true })).toEqual({ ok: true, ms: 0 });
    expect(readDuration('25h', { allowZero: false })).toEqual({ ok: false, problem: 'expected a duration of at most 24h' });
    expect(readDuration(Number.NaN, { allowZero: false }).ok).toBe(false);
    expect(readDuration(true, { allowZero: false }).ok).toBe(false);
  });

  it('with unitRequired (flow files), refuses a bare number as it refuses a quoted one, 0 aside', () => {
    const fix = 'has no unit, and one author means seconds where another means milliseconds';
    expect(readDuration(10, { allowZero: false, unitRequired: true })).toEqual({ ok: false, problem: `10 ${fix}: write 10s or 10ms` });
    expect(readDuration(0, { allowZero: true, unitRequired: true })).toEqual({ ok: true, ms: 0 });
    expect(readDuration('2s', { allowZero: true, unitRequired: true })).toEqual({ ok: true, ms: 2000 });
    expect(readDuration('ten', { allowZero: true, unitRequired: true })).toEqual({ ok: false, problem: 'expected a duration (500ms, 30s, 1.5m or 2h)' });
  });
});
