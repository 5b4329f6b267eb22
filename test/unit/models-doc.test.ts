/**
 * docs/models.md's model table is generated from the model table (issue 34, part 5): this fails when the two
 * differ, saying how to regenerate, and `sightline models` lists the same rows.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { MODELS_TABLE_END, MODELS_TABLE_START, withModelsTable } from '../../src/main/cli/models/models-markdown.js';
import { modelCatalog, type CatalogEntry } from '../../src/main/llm/model-catalog.js';
import { MODEL_TABLE } from '../../src/main/llm/model-table.js';
import { captureIo } from '../helpers/cli-io.js';

const DOC = fileURLToPath(new URL('../../docs/models.md', import.meta.url));

describe('docs/models.md', () => {
  it('holds the model table as src/main/llm/model-table.ts gives it', () => {
    const written = readFileSync(DOC, 'utf8');
    const generated = withModelsTable(written, modelCatalog());
    if (generated !== written) {
      expect.fail('docs/models.md and src/main/llm/model-table.ts differ: run `npm run docs:models` to regenerate the table (and commit it).');
    }
    expect(written).toContain('| `gpt-5.4[-YYYY-MM-DD]` | `openai-computer` | `computer` | 1,050,000 | $2.5 / $0.25 / $15 |');
    expect(written).toContain('| `claude-opus-5-5[-…]` | `anthropic-computer` | `computer_toolset_20260801` | 1,000,000 | $4 / $0.2 / $20 |');
  });

  it('is only rewritten between its markers, and a lost marker is said', () => {
    const document = `# Models\n\nprose before\n\n${MODELS_TABLE_START}\nold table\n${MODELS_TABLE_END}\n\nprose after\n`;
    const rewritten = withModelsTable(document, modelCatalog());
    expect(rewritten.startsWith('# Models\n\nprose before\n\n')).toBe(true);
    expect(rewritten.endsWith(`${MODELS_TABLE_END}\n\nprose after\n`)).toBe(true);
    expect(rewritten).not.toContain('old table');
    expect(() => withModelsTable('# Models\n', modelCatalog())).toThrow(/lost its markers/);
  });
});

describe('sightline models', () => {
  it('lists every row: pattern, dialect, computer tool, context window, prices and the day its source was read', async () => {
    const io = captureIo();
    expect(await runCli(['models'], io)).toBe(0);
    const lines = io.output.stdout.split('\n');
    expect(lines[0]).toMatch(/^MODEL +DIALECT +TOOL +CONTEXT +PRICE PER MILLION \(INPUT \/ CACHED \/ OUTPUT\) +READ$/);
    expect(lines.find((line) => line.startsWith('gpt-5.4['))).toMatch(/openai-computer +computer +1,050,000 +\$2\.5 \/ \$0\.25 \/ \$15 +2026-11-28$/);
    expect(lines.find((line) => line.startsWith('claude-opus-5-5['))).toMatch(/anthropic-computer +computer_toolset_20260801 +1,000,000 +\$4 \/ \$0\.2 \/ \$20 +2026-11-28$/);
    expect(lines.find((line) => line.startsWith('gpt-5.5['))).toMatch(/ unknown +2026-11-28$/);
    expect(lines.filter((line) => /\d{4}-\d{2}-\d{2}$/.test(line))).toHaveLength(MODEL_TABLE.length);
  });

  it('gives the rows as JSON with each source page, and why an unpriced one has none', async () => {
    const io = captureIo();
    expect(await runCli(['models', '--json'], io)).toBe(0);
    const { models } = JSON.parse(io.output.stdout) as { models: CatalogEntry[] };
    expect(models).toHaveLength(MODEL_TABLE.length);
    expect(models.find((entry) => entry.model === 'gpt-5.4')).toMatchObject({
      dialect: 'openai-computer',
      computerTool: 'computer',
      pricing: { inputPerMillion: 2.5, cachedInputPerMillion: 0.25, outputPerMillion: 15 },
      unpriced: null,
      source: { page: 'https://developers.openai.com/api/docs/models/gpt-5.4', read: '2026-11-28' },
    });
    expect(models.find((entry) => entry.model === 'gemini-3.5-flash')).toMatchObject({ pricing: null, unpriced: expect.stringMatching(/Google page/) });
  });
});
