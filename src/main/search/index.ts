/** The search layer's public surface: the Tavily client behind our own web search types. */
export {
  TavilySearchClient,
  TAVILY_MAX_EXTRACT_URLS,
  TAVILY_MAX_QUERY_CHARACTERS,
  type Sleep,
  type TavilySearchClientOptions,
} from './tavily-search-client.js';
export { TavilyCallCancelledError, TavilyError, TAVILY_ERROR_KINDS, type TavilyErrorKind } from './tavily-errors.js';
export type {
  ExtractedPage,
  PageExtractRequest,
  PageExtractResponse,
  WebSearchClient,
  WebSearchRequest,
  WebSearchResponse,
  WebSearchResult,
} from './web-search-client.js';
