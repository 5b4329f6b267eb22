/** Every migration, in order. A new schema change is a new numbered file added at the end of this list. */
import type { Migration } from './migration.js';
import { sessionsTurnsMessages } from './0001-sessions-turns-messages.js';
import { imagesAndSteps } from './0002-images-and-steps.js';
import { searchReportsAndInjections } from './0003-search-reports-and-injections.js';
import { compactionJournal } from './0004-compaction-journal.js';
import { turnOwner } from './0005-turn-owner.js';
import { stepScreenshotView } from './0006-step-screenshot-view.js';
import { messageProviderData } from './0007-message-provider-data.js';
import { stepCacheTokens } from './0008-step-cache-tokens.js';
import { stepCost } from './0009-step-cost.js';
import { imagePins } from './0010-image-pins.js';
import { generatedMedia } from './0011-generated-media.js';
import { flowStepsAndAnswers } from './0012-flow-steps-and-answers.js';
import { turnReplay } from './0013-turn-replay.js';
import { replicationMarks } from './0014-replication-marks.js';
import { turnAllowedFailure } from './0015-turn-allowed-failure.js';

export type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  sessionsTurnsMessages,
  imagesAndSteps,
  searchReportsAndInjections,
  compactionJournal,
  turnOwner,
  stepScreenshotView,
  messageProviderData,
  stepCacheTokens,
  stepCost,
  imagePins,
  generatedMedia,
  flowStepsAndAnswers,
  turnReplay,
  replicationMarks,
  turnAllowedFailure,
];
