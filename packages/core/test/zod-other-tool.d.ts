import type { AnyPlugin, AnyTool } from "../src/index.js";

/** A tool whose input and output schemas come from the user's zod 4.1 (see zod-other-tool.js). */
export declare const lookup: AnyTool;
/** Its plugin. */
export declare const plugin: AnyPlugin;
