import type { z } from "zod";
import type { AnyTool } from "./define-tool.js";
import type { HttpClient } from "./http/index.js";
import type { PluginCommand, PluginDemo, PluginSetup } from "./plugin-capabilities.js";
import { type PluginSlots, slotProblems } from "./plugin-slots.js";

// `secret` lived here before settings had their own module; kept importable from here.
export { secret } from "./plugin-settings.js";

/** The plugin contract version this core implements. */
export const SPECIFICATION_VERSION = "v1" as const;

/** What `health` reports for `quiver doctor`. */
export interface HealthReport {
  readonly ok: boolean;
  /** One line: what was checked and what was found. */
  readonly message: string;
  /** What to do when not ok. */
  readonly fix?: string;
  readonly latencyMs?: number;
}

/** What a plugin's `health` check receives. */
export interface HealthContext<Config, Resources = unknown> {
  readonly config: Config;
  /** What the plugin's `setup` opened (undefined without a setup). */
  readonly resources: Resources;
  readonly http: HttpClient;
  readonly signal: AbortSignal;
}

/**
 * A plugin as its author defines it. Everything past `tools` is an optional capability: the host
 * uses what is there and names no plugin (see CONTRIBUTING's "Add a plugin"). The slots of
 * {@link PluginSlots} (instructions, alias sets, resources, prompts, views) are reserved for later
 * issues: checked and carried to the catalog, not served yet (VERSIONING.md).
 */
export interface PluginDefinition<Config = unknown, Resources = unknown>
  extends PluginSlots<Config, Resources> {
  /** The plugin contract version; `"v1"` when left out. */
  readonly specificationVersion?: typeof SPECIFICATION_VERSION;
  /** Short id, `^[a-z0-9-]+$` (the tool-name prefix on clashes). */
  readonly id: string;
  /** The package's version: `version: pkg.version` from `import pkg from "../package.json" with { type: "json" }`. */
  readonly version: string;
  readonly description?: string;
  /**
   * The plugin's settings (a zod object): parsed from plugin options, the config file and environment
   * variables. Each field declares its variable and whether it is a secret with `setting()` and
   * `secret()`; `pluginSettings(plugin)` lists them.
   */
  readonly config?: z.ZodType<Config>;
  /**
   * Defaults for the settings (a `create<Name>Plugin(options)` passes its options here): environment
   * variables and registration options win over them.
   */
  readonly defaults?: Readonly<Record<string, unknown>>;
  readonly tools: ReadonlyArray<AnyTool>;
  /** Opens what the tools share (index, connection, client); closed with the catalog. */
  readonly setup?: PluginSetup<Config, Resources>;
  /** Commands the host mounts as `quiver <id> <command>` (an import, an index build ...). */
  readonly commands?: ReadonlyArray<PluginCommand<Config, Resources>>;
  /** Fills the plugin's store from data it ships when the host runs in demo mode. */
  readonly demo?: PluginDemo;
  /** Checks that the upstream is reachable and the settings work. */
  readonly health?: (ctx: HealthContext<Config, Resources>) => Promise<HealthReport>;
  /**
   * Releases what the plugin holds outside `setup` when the host stops. Prefer `setup` with
   * `onClose`: it is scoped to one registration.
   */
  readonly dispose?: () => Promise<void> | void;
}

const pluginMarker = Symbol.for("@quiver/core/Plugin");
const ID = /^[a-z0-9][a-z0-9-]{0,40}$/;
const COMMAND = /^[a-z][a-z0-9-]{0,40}$/;

/** A defined plugin. */
export type Plugin<Config = unknown, Resources = unknown> = PluginDefinition<Config, Resources> & {
  readonly specificationVersion: typeof SPECIFICATION_VERSION;
  readonly [pluginMarker]: true;
};

/** Any plugin, whatever its config type. */
export type AnyPlugin = Plugin<any, any>;

/** True for a value built by `definePlugin` (from any copy of @quiver/core). */
export const isPlugin = (u: unknown): u is AnyPlugin =>
  typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[pluginMarker] === true;

/**
 * Defines a plugin: an id, a version, its tools and an optional config schema read from options and
 * environment variables. Tool, command and slot names must be unique within the plugin.
 *
 * @example
 * export const fdaPlugin = definePlugin({
 *   id: "fda", version: "1.0.0", // a plugin package passes its package.json version
 *   config: z.object({ apiKey: secret({ env: "OPENFDA_API_KEY" }).optional() }),
 *   tools: [searchDrugs, countDrugs],
 * })
 */
export const definePlugin = <Config, Resources = unknown>(
  definition: PluginDefinition<Config, Resources>,
): Plugin<Config, Resources> => {
  if (!ID.test(definition.id)) throw new TypeError(`Plugin id "${definition.id}" must match ${ID}.`);
  const bad = definition.commands?.find((c) => !COMMAND.test(c.name));
  if (bad)
    throw new TypeError(`Plugin "${definition.id}": command name "${bad.name}" must match ${COMMAND}.`);
  const problems = slotProblems(definition, definition.tools, definition.commands);
  if (problems.length > 0) throw new TypeError(`Plugin "${definition.id}": ${problems.join("; ")}.`);
  return {
    ...definition,
    specificationVersion: definition.specificationVersion ?? SPECIFICATION_VERSION,
    [pluginMarker]: true,
  };
};
