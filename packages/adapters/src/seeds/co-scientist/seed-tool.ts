import type { Json } from "./types.js";

/** A mapping's Quiver input, or why the request cannot run. */
export type Built = { readonly input: Json; readonly unmet: string[] } | { readonly refused: string };

/** What a mapping makes of a response's data. */
export interface Shaped {
  readonly results: Json;
  readonly met?: boolean;
  readonly unmet?: string[];
  readonly complete?: boolean;
  readonly metadata?: Json;
}

/** How one named tool of the interface maps onto a Quiver tool. */
export interface SeedTool {
  readonly tool: string;
  readonly description: string;
  readonly querySchema: Json;
  readonly input: (query: Json, constraints: Json, toolName: string) => Built;
  /** Shapes a response's data; `metadata` is the envelope's (how the tool searched, its suggestions). */
  readonly shape: (data: Json, constraints: Json, metadata: Json) => Shaped;
}
