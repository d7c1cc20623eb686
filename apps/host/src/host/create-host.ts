import { basename } from "node:path";
import type { SeedProfile } from "@quiver/adapters/seeds";
import {
  type Catalog,
  type CatalogOptions,
  createCatalog,
  type HttpClient,
  memoryDriver,
  type PluginInfo,
  type RuntimeLog,
  type StoreDriver,
  type ToolPolicy,
} from "@quiver/core";
import { ConfigError } from "../config/config-error.js";
import type { HostSettings } from "../config/host-settings.js";
import type { LoadedPlugin, PluginProblem } from "../discovery/types.js";
import { createFindToolsPlugin } from "../find/find-tools-plugin.js";
import type { HostProfile } from "../profiles/host-profile.js";
import { checkAliasClashes } from "./check-aliases.js";
import { unknownOptions, unknownSetPlugins } from "./check-plugin-options.js";
import type { DemoReport } from "./demo.js";
import { discoverEnabled, settingsFor } from "./discover-enabled.js";
import { pluginOptions } from "./plugin-options.js";
import { type TrackedCatalog, trackCalls } from "./track-calls.js";

/** The config's policies over the profile's policy defaults (field by field, per tool). */
const profilePolicies = (settings: HostSettings, seed: SeedProfile | undefined): HostSettings["policies"] => {
  const defaults = seed?.policyDefaults ?? {};
  const out: Record<string, ToolPolicy> = { ...settings.policies };
  for (const [tool, policy] of Object.entries(defaults))
    out[tool] = { ...policy, ...settings.policies[tool] };
  return out;
};

/** A plugin that loaded, with its registration. */
export interface HostPlugin {
  readonly loaded: LoadedPlugin;
  readonly info: PluginInfo;
  /**
   * The options it was registered with (config file, demo and --set, minus fields set by env vars).
   */
  readonly options: Readonly<Record<string, unknown>>;
}

/** A running host: the catalog with every discovered plugin, and what went wrong on the way. */
export interface Host {
  readonly settings: HostSettings;
  /** The catalog (calls are tracked for graceful shutdown). */
  readonly catalog: Catalog;
  readonly tracker: TrackedCatalog;
  readonly plugins: ReadonlyArray<HostPlugin>;
  /** Plugins skipped, with why and how to fix it. */
  readonly problems: ReadonlyArray<PluginProblem>;
  /** Plugins turned off in the config or with --disable (id or package). */
  readonly disabled: ReadonlyArray<string>;
  /** What demo mode built (empty when off). */
  readonly demo: DemoReport;
  /** The seed system's profile served beside the tools (`--profile`), if any. */
  readonly profile?: HostProfile | undefined;
  /**
   * Discovers again and updates the catalog: plugins installed since are registered, uninstalled ones
   * removed (MCP clients get tools/list_changed). Already loaded plugins keep their module: an upgraded
   * package needs a restart, as does a changed config file.
   */
  readonly reload: () => Promise<ReloadReport>;
  /** The catalog's store (memory, or Redis for replicas): its `status()` is in `/health` and metrics. */
  readonly store: StoreDriver;
  /** Closes the catalog: every plugin releases what its `setup` opened. */
  readonly close: () => Promise<void>;
}

/** What `reload` changed. */
export interface ReloadReport {
  readonly added: ReadonlyArray<string>;
  readonly removed: ReadonlyArray<string>;
  readonly problems: ReadonlyArray<PluginProblem>;
}

/** Options of `createHost`. */
export interface CreateHostOptions {
  /**
   * Lines about progress (demo builds) and the runtime's own lines (a Redis outage, a tool's
   * `Effect.log*`, prefixed with their level unless info). Default: progress unsaid, runtime lines on
   * standard error.
   */
  readonly log?: (line: string) => void;
  /** Build demo stores (default: settings.demo.enabled). */
  readonly demo?: boolean;
  /** Telemetry exporters for the catalog (`quiver serve` with an OTLP endpoint set; see telemetry/). */
  readonly telemetry?: { readonly layer: NonNullable<CatalogOptions["layer"]>; readonly principal: boolean };
}

/**
 * Builds the host: discovers plugins (project dependencies plus config), builds demo stores when
 * asked, and registers every enabled plugin in one catalog with the configured policies, plus the
 * host's own `quiver_find_tools`. Broken plugins are reported in `problems` and skipped.
 *
 * @example
 * const host = await createHost(await resolveSettings())
 * console.log(host.catalog.list().map((t) => t.name))
 * await host.close()
 */
export const createHost = async (settings: HostSettings, options: CreateHostOptions = {}): Promise<Host> => {
  const discover = () => discoverEnabled(settings);

  const first = await discover();
  // The seed profiles (and their adapters) load only when one is asked for.
  const seed = settings.profile
    ? (await import("@quiver/adapters/seeds")).SEED_PROFILES[settings.profile]
    : undefined;
  const demoOn = options.demo ?? settings.demo.enabled;
  // Demo mode, Redis stores and bridged MCP servers load their code only when they are on: most
  // commands (`quiver list`) start without any of them.
  const demo: DemoReport = demoOn
    ? await (await import("./demo.js")).prepareDemo(first.enabled, settings, options.log ?? (() => {}))
    : { options: {}, lines: [] };

  checkAliasClashes(settings.aliases, first.enabled);
  const fileName = settings.configFile ? basename(settings.configFile) : "config";
  const unknown = [
    ...unknownSetPlugins(
      settings.plugins,
      [...first.enabled.map((p) => p.plugin.id), ...first.disabled],
      first.enabled.map((p) => p.candidate.package),
    ),
    ...first.enabled.flatMap((p) => unknownOptions(p.plugin, settingsFor(settings, p), fileName)),
  ];
  if (unknown.length > 0) throw new ConfigError(unknown);
  const log = options.log;
  const runtimeLog: RuntimeLog | undefined = log
    ? (level, message) => log(level === "info" ? message : `${level}: ${message}`)
    : undefined;
  const store: StoreDriver = settings.stores.redis
    ? await (await import("../stores/open-stores.js")).openRedisStore(settings.stores.redis, runtimeLog)
    : memoryDriver();
  // The record package (cassettes) loads only when cassettes are on.
  const http: HttpClient | undefined = settings.cassettes
    ? (await import("@quiver/record")).createCassetteHttpClient({
        ...settings.cassettes,
        ...(options.log ? { onError: options.log } : {}),
      })
    : undefined;
  // The scope rules (and the MCP module they come from) load only when `auth.scopes` names any: a
  // plain `quiver list` or `serve` starts without the MCP SDK.
  const scopes =
    Object.keys(settings.auth.scopes).length > 0 ? await import("../auth/scopes-allow.js") : undefined;
  let inner: ReturnType<typeof createCatalog>;
  try {
    inner = createCatalog({
      ...(http ? { http } : {}),
      env: settings.env,
      policies: profilePolicies(settings, seed),
      aliases: settings.aliases,
      store,
      ...(runtimeLog ? { log: runtimeLog } : {}),
      // Every call whose token carries scopes is checked, the ones a tool makes for its caller too.
      ...(scopes ? { requiredScopes: scopes.hostRequiredScopes(settings) } : {}),
      ...(options.telemetry
        ? { layer: options.telemetry.layer, tracePrincipal: options.telemetry.principal }
        : {}),
    });
  } catch (error) {
    throw new ConfigError([`aliases: ${(error as Error).message}`]);
  }
  const tracker = trackCalls(inner);
  const state = {
    plugins: [] as HostPlugin[],
    problems: [...first.problems],
    disabled: [...first.disabled],
  };

  // A profile's plugin defaults sit under the config file, flags and variables, like demo ones.
  const profileDefaults = seed?.pluginDefaults ?? {};
  const register = (loaded: LoadedPlugin): HostPlugin | PluginProblem => {
    try {
      const options = pluginOptions(loaded.plugin, settingsFor(settings, loaded), settings.env, {
        ...demo.options[loaded.plugin.id],
        ...profileDefaults[loaded.plugin.id],
      });
      const info = inner.register(loaded.plugin, options);
      return { loaded, info, options };
    } catch (error) {
      return {
        package: loaded.candidate.package,
        kind: "register_failed",
        message: `registering plugin "${loaded.plugin.id}" failed: ${(error as Error).message}`,
        fix: `Check the options given to "${loaded.plugin.id}" in the config file, or report it to the plugin's authors.`,
      };
    }
  };
  const registerAll = (list: ReadonlyArray<LoadedPlugin>) => {
    for (const loaded of list) {
      const r = register(loaded);
      if ("info" in r) state.plugins.push(r);
      else state.problems.push(r);
    }
  };
  registerAll(first.enabled);
  // The config file's mcpServers: bridged once at start; a reload keeps them.
  const bridged =
    Object.keys(settings.mcpServers).length > 0
      ? await (await import("./mcp-servers.js")).loadMcpServers(settings.mcpServers)
      : { plugins: [], problems: [] };
  registerAll(bridged.plugins);
  state.problems.push(...bridged.problems);
  const bridgedIds = new Set(bridged.plugins.map((p) => p.plugin.id));
  if (settings.find)
    inner.register(
      createFindToolsPlugin(tracker.catalog, scopes ? { mayCall: scopes.scopesAllow(settings) } : {}),
    );
  try {
    inner.checkAliases();
  } catch (error) {
    await inner.close();
    await http?.close();
    throw new ConfigError([`aliases: ${(error as Error).message}`]);
  }
  // The MCP module that knows alias sets loads only when one is asked for.
  const badSets =
    settings.aliasSets.length > 0
      ? (await import("./check-alias-sets.js")).aliasSetProblems(settings, inner)
      : [];
  if (badSets.length > 0) {
    await inner.close();
    await http?.close();
    throw new ConfigError(badSets);
  }

  const reload = async (): Promise<ReloadReport> => {
    const next = await discover();
    const nextIds = new Set(next.enabled.map((p) => p.plugin.id));
    const stays = (id: string) => nextIds.has(id) || bridgedIds.has(id);
    const removed = state.plugins.filter((p) => !stays(p.info.id));
    for (const p of removed) inner.unregister(p.info.id);
    const kept = state.plugins.filter((p) => stays(p.info.id));
    const keptIds = new Set(kept.map((p) => p.info.id));
    const fresh = next.enabled.filter((p) => !keptIds.has(p.plugin.id));
    state.plugins = kept;
    state.problems = [...next.problems, ...bridged.problems];
    state.disabled = [...next.disabled];
    registerAll(fresh);
    return {
      added: fresh.map((p) => p.plugin.id).filter((id) => inner.plugins().some((x) => x.id === id)),
      removed: removed.map((p) => p.info.id),
      problems: state.problems,
    };
  };

  return {
    settings,
    catalog: tracker.catalog,
    tracker,
    get plugins() {
      return state.plugins;
    },
    get problems() {
      return state.problems;
    },
    get disabled() {
      return state.disabled;
    },
    demo,
    profile: settings.profile
      ? (await import("../profiles/host-profile.js")).createHostProfile(settings.profile, tracker.catalog)
      : undefined,
    reload,
    store,
    close: async () => {
      await inner.close();
      await http?.close();
    },
  };
};
