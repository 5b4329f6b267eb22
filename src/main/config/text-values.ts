/**
 * Turns the text of an environment variable or a CLI flag into the kind of value its field holds.
 * Text that does not fit is returned unchanged, so that validation reports it with what was expected.
 */
import type { ConfigField } from './fields.js';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

export function valueFromText(field: ConfigField, text: string): unknown {
  const trimmed = text.trim();
  switch (field.kind) {
    case 'string':
      return text;
    case 'number': {
      const number = Number(trimmed);
      return trimmed !== '' && Number.isFinite(number) ? number : text;
    }
    case 'boolean': {
      const word = trimmed.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return text;
    }
    case 'list':
      // `PAGE_URL, SHOP_URL` or `PAGE_URL SHOP_URL`: names hold neither commas nor spaces.
      return trimmed === '' ? [] : trimmed.split(/[\s,]+/).filter((name) => name !== '');
    case 'enum':
      // Enum values are lower-case words; `Browser` in a shell variable means `browser`.
      return field.options.find((option) => option.toLowerCase() === trimmed.toLowerCase()) ?? text;
  }
}
