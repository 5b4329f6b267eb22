/**
 * What a step's model call cost in US dollars, priced when it was recorded under the price table then in
 * effect (the model's list price or `model.pricing`). Stored as a figure rather than recomputed from the
 * tokens, so a session's history keeps what it cost when prices in code or config change later. Null when
 * the model's price was unknown (its cost is then its tokens), on the steps of a reply after its first (the
 * call is counted once), and on rows from before this migration.
 */
import type { Migration } from './migration.js';

export const stepCost: Migration = {
  version: 9,
  name: 'step-cost',
  up(database) {
    database.exec(`
      ALTER TABLE steps ADD COLUMN cost_dollars REAL CHECK (cost_dollars IS NULL OR cost_dollars >= 0);
    `);
  },
};
