import type { ToolResult } from "@quiver/core";

/** The session every test call runs in. */
export const session = { session: { id: "t", principal: "alice" } } as const;

/** The data of a successful envelope, typed loosely for assertions. */
export const dataOf = (r: ToolResult) => r.data as Record<string, any>;

/** How an envelope's answer was searched (`endpoint`, `query`, `searched_fields`, …), typed loosely. */
export const metaOf = (r: ToolResult) => r.metadata as Record<string, any>;
