// What @quiver/plugin-perplexity's examples take as given (see scripts/examples/check-examples.mjs).
import type { HttpClient, ToolResult } from "@quiver/core";
import type { PerplexityConfig } from "@quiver/plugin-perplexity";

/** The parts of a tool's context a backend uses. */
export declare const http: HttpClient;
export declare const config: PerplexityConfig;
/** An envelope of `perplexity_search_web`. */
export declare const result: ToolResult;
