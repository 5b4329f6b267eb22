/**
 * What the search sub-agent needs from a web search service, in our own types: a search that returns
 * ranked snippets and an extract that reads whole pages. TavilySearchClient is the implementation; the
 * sub-agent depends only on this shape.
 */

export interface WebSearchRequest {
  query: string;
  /** How many results to ask for (Tavily allows 1–20). */
  maxResults?: number;
  /** `advanced` finds better snippets and costs two credits instead of one. */
  searchDepth?: 'basic' | 'advanced';
  signal?: AbortSignal;
}

export interface WebSearchResult {
  title: string;
  url: string;
  /** The snippet the service chose as most relevant to the query. */
  content: string;
  /** Relevance, 0 to 1. */
  score: number;
  publishedDate?: string;
}

export interface WebSearchResponse {
  /** The query as the service received it. */
  query: string;
  results: WebSearchResult[];
}

export interface PageExtractRequest {
  urls: string[];
  signal?: AbortSignal;
}

export interface ExtractedPage {
  url: string;
  title?: string;
  /** The page's text, cut to the client's bound. */
  rawContent: string;
  /** Whether the text was cut. */
  truncated: boolean;
}

export interface PageExtractResponse {
  pages: ExtractedPage[];
  /** Pages the service could not read, with its reason. */
  failed: { url: string; error: string }[];
}

export interface WebSearchClient {
  search(request: WebSearchRequest): Promise<WebSearchResponse>;
  extract(request: PageExtractRequest): Promise<PageExtractResponse>;
}
