/**
 * `npm run docs:models`: writes docs/models.md's model table from src/main/llm/model-table.ts, between its two
 * markers, leaving the prose around it as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { modelCatalog } from '../src/main/llm/model-catalog.js';
import { withModelsTable } from '../src/main/cli/models/models-markdown.js';

const file = fileURLToPath(new URL('../docs/models.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const after = withModelsTable(before, modelCatalog());
if (after === before) {
  process.stdout.write('docs/models.md: the model table is up to date\n');
} else {
  writeFileSync(file, after);
  process.stdout.write('docs/models.md: the model table is rewritten from src/main/llm/model-table.ts\n');
}
