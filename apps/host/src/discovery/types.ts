import type { AnyPlugin } from "@quiver/core";

/** A package (or file) that may hold a plugin, found before importing it. */
export interface PluginCandidate {
  /** The package name, or the path as given in the config file. */
  readonly package: string;
  readonly version: string | undefined;
  /** The package folder (undefined for a plain module file). */
  readonly dir: string | undefined;
  /** The module to import (absolute path). */
  readonly entry: string;
  /** The `@quiver/core` range the package declares, if any. */
  readonly coreRange: string | undefined;
  /** Found among the project's dependencies, or named in the config file / `--plugin`. */
  readonly source: "dependency" | "config";
}

/** A plugin imported and checked. */
export interface LoadedPlugin {
  readonly candidate: PluginCandidate;
  readonly plugin: AnyPlugin;
  /** The module's exports. */
  readonly module: Readonly<Record<string, unknown>>;
}

/** Why a plugin was skipped. */
export type ProblemKind =
  | "not_found"
  | "no_entry"
  | "import_failed"
  | "invalid_shape"
  | "incompatible"
  | "duplicate"
  | "register_failed"
  | "not_installed";

/** A plugin that could not be served: which package, why, and how to fix it. */
export interface PluginProblem {
  readonly package: string;
  readonly kind: ProblemKind;
  /** Why, in one line. */
  readonly message: string;
  /** What to do. */
  readonly fix: string;
  /** The underlying error's stack, for `--verbose`. */
  readonly detail?: string;
}

/** The outcome of discovery: the plugins that loaded and the ones that did not. */
export interface DiscoveryResult {
  readonly plugins: ReadonlyArray<LoadedPlugin>;
  readonly problems: ReadonlyArray<PluginProblem>;
  /** How many packages were looked at. */
  readonly scanned: number;
}
