/** The context layer's public surface: what the agent imports. */
export {
  buildRequest,
  type BuildRequestInput,
  type BuiltRequest,
  type ContextPolicy,
  type ContextSettings,
} from './request-builder.js';
export { ContextBudgetError, ALWAYS_WHOLE_RECENT_SCREENSHOTS } from './token-budget.js';
export {
  compactTurn,
  reconcileCompactions,
  CompactionRefusedError,
  type CompactTurnInput,
  type CompactionResult,
  type CompactionSeams,
  type CompactionReconciliation,
  type ReconcileCompactionsOptions,
} from './compact-turn.js';
export { CompactionQueue, createCompactionHook, type CompactionQueueOptions } from './compaction-queue.js';
export { placeholderText, placeholderImageId } from './captions.js';
export {
  historyPictureText,
  historyPictureHash,
  findHistoryPicture,
  lookUpHistoryPicture,
  picturesByTurn,
  MIN_HASH_PREFIX_LENGTH,
  type HistoryPictureLookup,
} from './history-pictures.js';
export { ShownImages, type ImageShowing, type ImageSize } from './shown-images.js';
export { EncodedImageCache, type EncodedImage, type ResolvedImage } from './encoded-image-cache.js';
export { TurnRequestCache } from './turn-request-cache.js';
export { imageToken, unavailableImageText } from './image-reference.js';
export { effectiveMaxImageEdge, modelImageSize } from './model-image-size.js';
export { estimateTextTokens } from './token-estimates.js';
export { nextRequestImages, type NextRequestInput } from './next-request-images.js';
export { activeZoneShape, type ActiveZoneShape } from './active-zone-shape.js';
export { earlierTurnsShape, type EarlierTurnsShape } from './earlier-turns-shape.js';
export {
  injectEphemeral,
  injectionDebugLogFromEnvironment,
  stripInjectedBlocks,
  stripInjectedFromMessages,
  type InjectionDebugLog,
} from './ephemeral-injection.js';
export { cleanUserRequest, stripInlineBlocks } from './inline-injections.js';
