// What @quiver/testing's examples take as given (see scripts/examples/check-examples.mjs): a test
// file's vitest globals, a running emulator `up`, and the plugins under test.
import type { AnyPlugin, Catalog, CatalogOptions, ToolResult } from "@quiver/core";
import type { Cassette } from "@quiver/record";
import type { Emulator, FaultHandle, FaultMatrixOptions, PackageJson, SessionCall } from "@quiver/testing";

export { createContext7Plugin } from "@quiver/plugin-context7";
export { createFdaPlugin } from "@quiver/plugin-fda";
export { createRagPlugin } from "@quiver/plugin-rag";
export { afterAll, describe, expect, it } from "vitest";
/** The emulator of the test (`await startEmulator()`). */
export declare const up: Emulator;
/** A catalog with the plugin under test registered. */
export declare const catalog: Catalog;
/** The plugin under test, and two of them by name. */
export declare const plugin: AnyPlugin;
export declare const fdaPlugin: AnyPlugin;
export declare const weatherPlugin: AnyPlugin;
/** A plugin factory of a plugin package being written. */
export declare const createMyPlugin: () => AnyPlugin;
export declare const createWeatherPlugin: () => AnyPlugin;
/** A catalog with the openFDA plugin, on the given options. */
export declare const fdaCatalog: (options: { baseUrl: string }, catalogOptions?: CatalogOptions) => Catalog;
/** Calls the tool under test (through `catalog`), or a plugin's first tool. */
export declare const callTool: () => Promise<ToolResult>;
export declare const call: (plugin: AnyPlugin) => Promise<ToolResult>;
/** Starts the emulator of an upstream. */
export declare const startOpenFda: () => Promise<Emulator>;
export declare const startRagEmulator: () => Promise<Emulator>;
/** A plugin package's manifest and README. */
export declare const pkg: PackageJson;
export declare const readme: string;
/** Recorded data and the calls of a record/replay test. */
export declare const cassette: Cassette;
export declare const calls: readonly SessionCall[];
export declare const page2: unknown;
export declare const gene: unknown;
export declare const input: Record<string, unknown>;
/** A fault installed with `up.fault(...)`. */
export declare const f: FaultHandle;
/** Paths of the test: a cassette file or folder, a search index, a folder to index. */
export declare const path: string;
export declare const dir: string;
export declare const indexPath: string;
export declare const folder: string;
/** A secret that must never leak, and words to build queries from. */
export declare const CANARY: string;
export declare const WORDS: readonly string[];
/** A fault matrix's options for the openFDA plugin (emulator, catalog, calls). */
export declare const fdaMatrix: FaultMatrixOptions;
