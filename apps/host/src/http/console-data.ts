import type { Catalog, ToolInfo } from "@quiver/core";
import type { PluginProblem } from "../discovery/types.js";
import { pluginState } from "../host/plugin-state.js";
import type { ConsolePlugin, ConsoleState, ConsoleStats, RecentCall } from "./api-types.js";

/** What the console needs from the host beyond the catalog. */
export interface ConsoleSource {
  /** Plugins that failed to load, with why and the fix. */
  readonly problems?: () => ReadonlyArray<PluginProblem>;
  /** The last finished calls, newest first. */
  readonly recent?: () => ReadonlyArray<RecentCall>;
  /** Tool aliases, `{ alias: tool }`: the console charts an alias with its tool's figures. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** The built console's folder (default: the package's dist/console). */
  readonly dir?: string;
}

/** Who asks for the console's data, as the HTTP API authenticated them. */
export interface ConsoleCaller {
  readonly principal: string | undefined;
  /** Whether the server asks for a token at all. */
  readonly auth: boolean;
  /** The scopes of a tool the caller's token lacks (empty or absent: it may call it). */
  readonly missingScopes?: (tool: Pick<ToolInfo, "name" | "plugin">) => ReadonlyArray<string>;
}

/**
 * The catalog grouped by plugin, with who the caller is: GET /console/api/state. A tool the caller's
 * token lacks scopes for is left out, as in GET /tools and MCP tools/list.
 */
export const consoleState = (
  catalog: Catalog,
  source: ConsoleSource,
  caller: ConsoleCaller & { readonly version?: string },
): ConsoleState => {
  const aliases = source.aliases ?? {};
  const allowed = (t: ToolInfo) => (caller.missingScopes?.(t).length ?? 0) === 0;
  const tools = catalog
    .list()
    .filter(allowed)
    .map((t) => {
      const target = Object.hasOwn(aliases, t.name) ? aliases[t.name] : undefined;
      return target ? { ...t, aliasOf: target } : t;
    });
  const plugins: ConsolePlugin[] = catalog.plugins().map((p) => ({
    id: p.id,
    version: p.version,
    ...(p.description ? { description: p.description } : {}),
    ...pluginState(p),
    missing: p.missing,
    tools: tools.filter((t) => t.plugin === p.id),
  }));
  for (const problem of source.problems?.() ?? []) {
    plugins.push({
      id: problem.package,
      state: "failing",
      message: problem.message,
      missing: [],
      fix: problem.fix,
      tools: [],
    });
  }
  return { principal: caller.principal ?? null, auth: caller.auth, version: caller.version, plugins };
};

/**
 * Per-tool figures now (cumulative counters, latency quantiles over the last 10 minutes, cache hit
 * rate, breaker state) and the recent calls: GET /console/api/stats, polled by the page's charts.
 */
export const consoleStats = async (catalog: Catalog, source: ConsoleSource): Promise<ConsoleStats> => {
  return {
    at: Date.now(),
    tools: await catalog.stats(),
    recent: source.recent?.() ?? [],
  };
};
