// What @quiver/core's examples take as given (see scripts/examples/check-examples.mjs).
import type { AnyPlugin, AnyTool, Catalog } from "@quiver/core";

export { Redacted } from "effect";
export { z } from "zod";
/** A catalog with plugins registered (`createCatalog()`). */
export declare const catalog: Catalog;
/** A plugin, such as `@quiver/plugin-fda`'s default export. */
export declare const plugin: AnyPlugin;
/** The openFDA plugin, `@quiver/plugin-fda`'s default export. */
export declare const fdaPlugin: AnyPlugin;
/** Tools of the openFDA plugin. */
export declare const searchDrugs: AnyTool;
export declare const countDrugs: AnyTool;
