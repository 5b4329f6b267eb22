/**
 * How the step's screenshot was shown to the model: the size of the image it saw and its coordinate space
 * (pixels or 0–1000). A step's action coordinates are in that space, not in the stored original's pixels
 * (the model sees a downscaled copy), so the timeline needs it to draw a click where it landed. Rows from
 * before this migration have none; the timeline then draws nothing rather than guess.
 */
import type { Migration } from './migration.js';

export const stepScreenshotView: Migration = {
  version: 6,
  name: 'step-screenshot-view',
  up(database) {
    database.exec(`
      ALTER TABLE steps ADD COLUMN screenshot_view TEXT CHECK (screenshot_view IS NULL OR json_valid(screenshot_view));
    `);
  },
};
