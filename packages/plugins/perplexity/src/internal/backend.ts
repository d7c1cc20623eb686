import type { HttpClient } from "@quiver/core";
import type { PerplexityConfig } from "../config.js";
import type { WebSearchOutput } from "./web-results.js";

/** Recency windows both APIs accept (`search_recency_filter`). */
export type Recency = "hour" | "day" | "week" | "month" | "year";

/** A web search, as the tool received it (with defaults applied). */
export interface WebSearchRequest {
  readonly query: string;
  readonly recency?: Recency | undefined;
  /** Up to 20 domains; `-example.com` excludes one. */
  readonly domains?: ReadonlyArray<string> | undefined;
  readonly maxResults: number;
  /** Chat API only. */
  readonly model?: string | undefined;
}

/** What a backend needs for one call. */
export interface BackendContext {
  readonly http: HttpClient;
  readonly config: PerplexityConfig;
  readonly signal: AbortSignal;
}

/**
 * One Perplexity API behind `perplexity_search_web`, normalised to {@link WebSearchOutput}. Sonar
 * chat completions are being replaced by the Agent API (reference §2.0), so each API lives behind
 * this interface and a new one is one more implementation.
 */
export interface WebSearchBackend {
  readonly api: WebSearchOutput["api"];
  search(request: WebSearchRequest, ctx: BackendContext): Promise<WebSearchOutput>;
}
