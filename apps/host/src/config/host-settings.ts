import type { SeedProfileName } from "@quiver/adapters/seeds";
import type { ToolPolicy } from "@quiver/core";
import type { McpToolCallerOptions } from "@quiver/mcp";
import type { CassetteMode, ReplayTiming } from "@quiver/record";
import type { AuthSettings } from "./auth-settings.js";
import type { TaskSettings } from "./task-settings.js";

/** Settings of one plugin from the config file and `--set`/`--disable` flags. */
export interface PluginSettings {
  /** `false` from the file or a `--disable` flag; undefined means enabled. */
  readonly enabled: boolean | undefined;
  /** Options from the config file (environment variables win over these). */
  readonly fileOptions: Readonly<Record<string, unknown>>;
  /** Options from `--set <plugin>.<key>=<value>` flags (they win over everything). */
  readonly flagOptions: Readonly<Record<string, unknown>>;
}

/** Demo mode: plugins with a demo step fill their stores from the data they ship. */
export interface DemoSettings {
  readonly enabled: boolean;
  /** Where demo builds are kept between runs (one folder per plugin id inside). */
  readonly cacheDir: string;
}

/**
 * One entry of the config file's `mcpServers` section, in the shape MCP clients use: a command
 * speaking MCP on stdio (`command`, `args`, `env`, `cwd`) or a Streamable HTTP endpoint (`url`,
 * `headers`). Its tools are bridged into the catalog as `<name>_<tool>`.
 */
export type McpServerSettings = Pick<
  McpToolCallerOptions,
  "command" | "args" | "env" | "cwd" | "url" | "headers"
>;

/** Server settings (HTTP API and MCP Streamable HTTP on one port). */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  readonly allowedOrigins: ReadonlyArray<string> | "*";
  readonly allowedHosts: ReadonlyArray<string> | "*";
  /** How long in-flight calls may run after SIGTERM before they are cancelled. */
  readonly shutdownTimeoutMs: number;
  /**
   * MCP without sessions, so any replica answers any request (`server.stateless`, env
   * QUIVER_STATELESS; default: on when Redis is configured, i.e. when replicas share state).
   */
  readonly stateless: boolean;
  /** Open MCP sessions per principal (with tokens only); the principal's oldest idle is evicted beyond. */
  readonly maxSessionsPerPrincipal: number;
  /** Open MCP sessions over all callers; beyond, the oldest idle of all is evicted (with tokens) or the new one refused (without). */
  readonly maxSessions: number;
  /** An MCP session with no request for this long is closed. */
  readonly sessionIdleTimeoutMs: number;
}

/** Where rate limits and circuit breakers are kept (default: in memory, per process). */
export interface StoreSettings {
  /** Redis shared by every host replica (`stores.redis`, env QUIVER_REDIS_URL). */
  readonly redis?: {
    /** `redis://…` or `rediss://…`; may hold a password, so it is never printed. */
    readonly url: string;
    /** Key prefix (default: @quiver/redis's). */
    readonly prefix?: string;
  };
}

/** Record or replay the plugins' upstream traffic (`--record`, `--replay`, `--replay-or-record`). */
export interface CassetteSettings {
  /** The cassette folder (absolute). */
  readonly dir: string;
  readonly mode: CassetteMode;
  /** Replay at once or as recorded (`--replay-timing`). */
  readonly timing: ReplayTiming;
}

/** Everything the host runs with, after flags > environment > config file > defaults. */
export interface HostSettings {
  readonly cwd: string;
  /** The config file used, if any. */
  readonly configFile: string | undefined;
  /** Folder that relative paths in the config file are read from. */
  readonly baseDir: string;
  readonly demo: DemoSettings;
  /** Scan the projects' dependencies for plugins (default true). */
  readonly discover: boolean;
  /** Project folders whose package.json dependencies are scanned (default: the working directory). */
  readonly projects: ReadonlyArray<string>;
  /** Per plugin id or package name. */
  readonly plugins: ReadonlyMap<string, PluginSettings>;
  /** Extra plugin packages or paths to load. */
  readonly load: ReadonlyArray<string>;
  readonly policies: Readonly<Record<string, ToolPolicy>>;
  /** Bearer token → principal (HTTP API and MCP). */
  readonly tokens: Readonly<Record<string, string>>;
  /** OAuth 2.1 access tokens (`auth.oidc`), the scopes tools require and the public URL. */
  readonly auth: AuthSettings;
  /** The principal of calls that carry no token (CLI, stdio, HTTP without tokens). */
  readonly principal: string | undefined;
  /** Offer `quiver_find_tools` (default true). */
  readonly find: boolean;
  /** Other names for tools: alias → tool name. */
  readonly aliases: Readonly<Record<string, string>>;
  /** MCP servers whose tools are bridged in, by name (`mcpServers`; tools named `<name>_<tool>`). */
  readonly mcpServers: Readonly<Record<string, McpServerSettings>>;
  readonly stores: StoreSettings;
  /** How long tasks may run: the default deadline and one per tool (`tasks`). */
  readonly tasks: TaskSettings;
  /** Cassettes: every tool call recorded to, or replayed from, a folder (off when undefined). */
  readonly cassettes: CassetteSettings | undefined;
  readonly server: ServerSettings;
  /** The environment plugins read their settings from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Things that are not errors but deserve a line (an unset token variable ...). */
  readonly warnings: ReadonlyArray<string>;
  /** The seed system's profile served beside the tools (`--profile`, else the file's `profile`). */
  readonly profile?: SeedProfileName | undefined;
  /**
   * Alias sets served over MCP (`--alias-set`, else the file's `aliasSets`): a plugin's other names
   * for its tools and parameters, e.g. context7's `context7-mcp`. Checked against the plugins at start.
   */
  readonly aliasSets: ReadonlyArray<string>;
}
