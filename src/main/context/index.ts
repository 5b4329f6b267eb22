/** The context layer's public surface: what the agent imports. */
export { buildRequest, type BuildRequestInput, type BuiltRequest } from './request-builder.js';
export { EncodedImageCache, type EncodedImage, type ResolvedImage } from './encoded-image-cache.js';
export { imageToken, unavailableImageText } from './image-reference.js';
export { effectiveMaxImageEdge, modelImageSize } from './model-image-size.js';
export { estimateTextTokens } from './token-estimates.js';
export {
  injectEphemeral,
  injectionDebugLogFromEnvironment,
  stripInjectedBlocks,
  stripInjectedFromMessages,
  type InjectionDebugLog,
} from './ephemeral-injection.js';
