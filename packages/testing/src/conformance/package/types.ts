import type { AnyPlugin } from "@quiver/core";

/** A parsed package.json (only the fields the checks read are typed). */
export interface PackageJson {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly type?: unknown;
  readonly keywords?: unknown;
  readonly quiver?: unknown;
  readonly [field: string]: unknown;
}

/** Everything the package checks read, gathered by `readPluginPackage`. */
export interface PluginPackage {
  /** The package folder (absolute). */
  readonly dir: string;
  /** The parsed package.json. */
  readonly pkg: PackageJson;
  /** Every file of the package, relative and with `/` separators (node_modules, dist and dot folders left out). */
  readonly files: ReadonlyArray<string>;
  /** The README text, undefined when there is none. */
  readonly readme: string | undefined;
  /** The text of `src/index.ts` (undefined when it is missing). */
  readonly indexSource: string | undefined;
  /** The text of `src/config.ts` (undefined when it is missing). */
  readonly configSource: string | undefined;
  /** The module `src/index.ts` exports, or the error importing it threw. */
  readonly index:
    | { readonly ok: true; readonly module: Readonly<Record<string, unknown>> }
    | { readonly ok: false; readonly error: string };
  /** The plugin to check: the one given, else the index's default export (undefined when it has none). */
  readonly plugin: AnyPlugin | undefined;
}
