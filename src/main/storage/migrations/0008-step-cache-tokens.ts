/**
 * How much of a step's input the provider's prompt cache served (read) and how much the call wrote to it.
 * Anthropic bills a cache write above and a cache read far below plain input, and OpenAI reports reads,
 * so the input count alone no longer says what a step cost. Rows from before this migration have neither,
 * as do steps whose provider reported no cache.
 */
import type { Migration } from './migration.js';

export const stepCacheTokens: Migration = {
  version: 8,
  name: 'step-cache-tokens',
  up(database) {
    database.exec(`
      ALTER TABLE steps ADD COLUMN cached_input_tokens INTEGER CHECK (cached_input_tokens IS NULL OR cached_input_tokens >= 0);
      ALTER TABLE steps ADD COLUMN cache_write_input_tokens INTEGER CHECK (cache_write_input_tokens IS NULL OR cache_write_input_tokens >= 0);
    `);
  },
};
