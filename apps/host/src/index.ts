import pkg from "../package.json" with { type: "json" };

export { type CliIo, runCli } from "./cli/run-cli.js";

export { COMMANDS } from "./commands/index.js";
export { ConfigError } from "./config/config-error.js";
export { type ConfigFile, configFileSchema, policySchema } from "./config/config-schema.js";
export type { DemoSettings, HostSettings, PluginSettings, ServerSettings } from "./config/host-settings.js";
export { CONFIG_FILE_NAMES, type LoadedConfig, loadConfig, readConfigFile } from "./config/load-config.js";
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type HostFlags,
  parseSetFlags,
  resolveSettings,
} from "./config/resolve-settings.js";
export { checkPluginShape, type ShapeVerdict } from "./discovery/check-shape.js";
export { type CoreRangeVerdict, checkCoreRange, coreRangeFor } from "./discovery/core-range.js";
export { type DiscoverOptions, discoverPlugins } from "./discovery/discover-plugins.js";
export { loadPlugin } from "./discovery/load-plugin.js";
export type {
  DiscoveryResult,
  LoadedPlugin,
  PluginCandidate,
  PluginProblem,
  ProblemKind,
} from "./discovery/types.js";
export { createFindToolsPlugin, FIND_TOOL_NAME } from "./find/find-tools-plugin.js";
export { indexTools, type RankableTool, type ToolIndex, type ToolMatch } from "./find/rank-tools.js";
export { createToolFinder } from "./find/tool-finder.js";
export {
  type CreateHostOptions,
  createHost,
  type Host,
  type HostPlugin,
  type ReloadReport,
} from "./host/create-host.js";
export { type DrainReport, type InflightCall, type TrackedCatalog, trackCalls } from "./host/track-calls.js";
export type { ConsolePlugin, RecentCall } from "./http/api-types.js";
export type { ConsoleSource } from "./http/console-data.js";
export { createHttpApi, type HttpApiOptions } from "./http/create-http-api.js";
export {
  type ExtraGauge,
  type MetricSnapshot,
  PROMETHEUS_CONTENT_TYPE,
  toPrometheus,
} from "./http/prometheus.js";
export { type RunningServer, type StartServerOptions, startServer } from "./http/start-server.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
