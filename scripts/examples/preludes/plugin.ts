// What every plugin package's examples take as given (see scripts/examples/check-examples.mjs): a
// catalog the plugin is registered in, and the context a tool's `run` receives.
import type { Catalog, ToolContext } from "@quiver/core";

/** A catalog with the plugin registered (`createCatalog()` then `catalog.register(...)`). */
export declare const catalog: Catalog;
/** The context of a tool's `run`, or of a plugin's `setup`. */
export declare const ctx: ToolContext;
/** A progress bar of a command. */
export declare const bar: { update(...values: ReadonlyArray<string | number>): void };
