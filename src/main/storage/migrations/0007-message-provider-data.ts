/**
 * What a provider needs back with a tool's result beyond its parts: OpenAI's computer tool wants the
 * safety checks a person acknowledged, and the browser page's URL, with the screenshot it is sent. A
 * request is rendered from the database, so that data is kept with the tool message it belongs to. Rows
 * from before this migration have none, which is what every result of every other tool has.
 */
import type { Migration } from './migration.js';

export const messageProviderData: Migration = {
  version: 7,
  name: 'message-provider-data',
  up(database) {
    database.exec(`
      ALTER TABLE messages ADD COLUMN provider_data TEXT CHECK (provider_data IS NULL OR (json_valid(provider_data) AND json_type(provider_data) = 'object'));
    `);
  },
};
