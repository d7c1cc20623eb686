import * as Redacted from "effect/Redacted";
import { z } from "zod";
import type { AnyTool } from "./define-tool.js";
import type { HttpClient } from "./http/index.js";
import type { PluginCommand, PluginDemo, PluginSetup } from "./plugin-capabilities.js";

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
 * uses what is there and names no plugin (see CONTRIBUTING's "Add a plugin").
 */
export interface PluginDefinition<Config = unknown, Resources = unknown> {
  readonly specificationVersion: typeof SPECIFICATION_VERSION;
  /** Short id, `^[a-z0-9-]+$` (the tool-name prefix on clashes). */
  readonly id: string;
  readonly version: string;
  readonly description?: string;
  /** The plugin's settings: parsed from plugin options, the config file and environment variables. */
  readonly config?: z.ZodType<Config>;
  /**
   * Defaults for the settings (a `create<Name>Plugin(options)` passes its options here): environment
   * variables and registration options win over them.
   */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** Environment variable for each config field: `{ apiKey: "PERPLEXITY_API_KEY" }`. */
  readonly env?: Readonly<Record<string, string>>;
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
  readonly [pluginMarker]: true;
};

/** Any plugin, whatever its config type. */
export type AnyPlugin = Plugin<any, any>;

/** True for a value built by `definePlugin` (from any copy of @quiver/core). */
export const isPlugin = (u: unknown): u is AnyPlugin =>
  typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[pluginMarker] === true;

/**
 * Defines a plugin: an id, a version, its tools and an optional config schema read from options and
 * environment variables. Tool names must be unique within the plugin.
 *
 * @example
 * export const fdaPlugin = definePlugin({
 *   specificationVersion: "v1", id: "fda", version: VERSION,
 *   config: z.object({ apiKey: secret().optional() }), env: { apiKey: "OPENFDA_API_KEY" },
 *   tools: [searchDrugs, countDrugs],
 * })
 */
export const definePlugin = <Config, Resources = unknown>(
  definition: PluginDefinition<Config, Resources>,
): Plugin<Config, Resources> => {
  if (!ID.test(definition.id)) throw new TypeError(`Plugin id "${definition.id}" must match ${ID}.`);
  const seen = new Set<string>();
  for (const tool of definition.tools) {
    if (seen.has(tool.name))
      throw new TypeError(`Plugin "${definition.id}" defines tool "${tool.name}" twice.`);
    seen.add(tool.name);
  }
  const commands = new Set<string>();
  for (const command of definition.commands ?? []) {
    if (!COMMAND.test(command.name))
      throw new TypeError(`Plugin "${definition.id}": command name "${command.name}" must match ${COMMAND}.`);
    if (commands.has(command.name))
      throw new TypeError(`Plugin "${definition.id}" defines command "${command.name}" twice.`);
    commands.add(command.name);
  }
  return { ...definition, [pluginMarker]: true };
};

/**
 * A secret setting: a non-empty string kept as `Redacted`, so it never prints in a log or error.
 *
 * @example
 * config: z.object({ apiKey: secret().describe("Perplexity API key") })
 */
export const secret = () =>
  z
    .string()
    .min(1)
    .transform((value) => Redacted.make(value));

/** The outcome of reading a plugin's settings. */
export type PluginConfigResult<Config> =
  | { readonly ok: true; readonly config: Config; readonly secrets: ReadonlyArray<Redacted.Redacted<string>> }
  | {
      readonly ok: false;
      /** One line for people and models: what is missing or wrong. */
      readonly message: string;
      /** Environment variables that would fix it. */
      readonly missing: ReadonlyArray<string>;
    };

/**
 * Reads a plugin's settings: explicit options win over environment variables. Secrets found in the
 * result are returned so the runtime can redact them from every message.
 */
export const resolvePluginConfig = <Config, Resources = unknown>(
  plugin: PluginDefinition<Config, Resources>,
  options: Readonly<Record<string, unknown>> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): PluginConfigResult<Config> => {
  if (!plugin.config) return { ok: true, config: undefined as Config, secrets: [] };
  const raw: Record<string, unknown> = { ...definedOnly(plugin.defaults ?? {}) };
  for (const [field, variable] of Object.entries(plugin.env ?? {})) {
    const value = env[variable];
    if (value !== undefined && value !== "") raw[field] = value;
  }
  Object.assign(raw, definedOnly(options));
  // Parsed once per plugin at start-up: zod's eval-compiled fast path would cost more to build than
  // it saves on one parse, so this parse runs without it.
  const parsed = plugin.config.safeParse(raw, { jitless: true });
  if (parsed.success) return { ok: true, config: parsed.data, secrets: collectSecrets(parsed.data) };
  const missing: string[] = [];
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.join(".");
    const variable = plugin.env?.[String(issue.path[0])];
    if (variable && raw[String(issue.path[0])] === undefined) {
      missing.push(variable);
      return `${variable} is not set`;
    }
    return `${field || "config"}: ${issue.message}`;
  });
  return { ok: false, message: `Plugin "${plugin.id}" is not configured: ${problems.join("; ")}.`, missing };
};

const definedOnly = (record: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));

const collectSecrets = (
  value: unknown,
  out: Redacted.Redacted<string>[] = [],
): Redacted.Redacted<string>[] => {
  if (Redacted.isRedacted(value)) out.push(value as Redacted.Redacted<string>);
  else if (value && typeof value === "object") for (const v of Object.values(value)) collectSecrets(v, out);
  return out;
};
