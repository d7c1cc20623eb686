// What @quiver/core's examples take as given (see scripts/examples/check-examples.mjs).
import type { IncomingMessage } from "node:http";
import type { AnyPlugin, AnyTool, BatchCall, Catalog } from "@quiver/core";

export { Redacted } from "effect";
export { z } from "zod";
/** A catalog with plugins registered (`createCatalog()`). */
export declare const catalog: Catalog;
/** A plugin, such as `@quiver/plugin-fda`'s default export. */
export declare const plugin: AnyPlugin;
/** Tools of the openFDA plugin. */
export declare const searchDrugs: AnyTool;
export declare const countDrugs: AnyTool;
/** The request the example answers, and a tool's input. */
export declare const req: IncomingMessage;
export declare const input: Record<string, unknown>;
/** The calls of a batch. */
export declare const calls: readonly BatchCall[];
/** A tool, and collections a caller may read. */
export declare const tool: AnyTool;
export declare const readable: ReadonlyArray<{ readonly name: string }>;
