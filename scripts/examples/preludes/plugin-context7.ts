// What @quiver/plugin-context7's examples take as given (see scripts/examples/check-examples.mjs).
import type { ToolContext } from "@quiver/core";
import type { Context7Config, DocsClient, LibraryMatch } from "@quiver/plugin-context7";
import type { z } from "zod";

export { ContextResponseSchema } from "../../src/internal/upstream-schemas.js";
/** A tool's context, with the plugin's settings. */
export declare const ctx: ToolContext<Context7Config>;
export declare const config: Context7Config;
/** A docs client, the libraries it found, and an HTTP answer to read. */
export declare const client: DocsClient;
export declare const results: readonly LibraryMatch[];
export declare const response: { json<S extends z.ZodType>(schema: S): Promise<z.output<S>> };
/** Anything, not yet known to be a docs client. */
export declare const value: unknown;
