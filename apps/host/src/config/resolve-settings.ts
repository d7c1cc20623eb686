import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { SeedProfileName } from "@quiver/adapters/seeds";
import { closestMatches, type ToolPolicy, toMillis } from "@quiver/core";
import { resolveAuthSettings } from "./auth-settings.js";
import { ConfigError } from "./config-error.js";
import type { HostSettings, McpServerSettings, PluginSettings } from "./host-settings.js";
import { loadConfig } from "./load-config.js";
import { resolveTaskSettings } from "./task-settings.js";

/** Settings given on the command line (every field optional). */
export interface HostFlags {
  readonly cwd?: string | undefined;
  readonly config?: string | undefined;
  readonly port?: string | undefined;
  readonly host?: string | undefined;
  readonly demo?: boolean | undefined;
  readonly principal?: string | undefined;
  /** `<plugin>.<key>=<value>` (value parsed as JSON when it parses, else a string). */
  readonly set?: ReadonlyArray<string> | undefined;
  /** Plugin ids or package names to leave out. */
  readonly disable?: ReadonlyArray<string> | undefined;
  /** Extra plugin packages or paths to load. */
  readonly plugin?: ReadonlyArray<string> | undefined;
  /** Cassette folder to record every tool call to. */
  readonly record?: string | undefined;
  /** Cassette folder to replay every tool call from, with no network. */
  readonly replay?: string | undefined;
  /** Cassette folder to replay from, recording the calls it lacks. */
  readonly replayOrRecord?: string | undefined;
  /** `instant` (default) or `recorded`. */
  readonly replayTiming?: string | undefined;
  /** `--max-sessions-per-principal` (serve). */
  readonly maxSessionsPerPrincipal?: string | undefined;
  /** `--session-idle-timeout` (serve). */
  readonly sessionIdleTimeout?: string | undefined;
  /** `--profile` (serve): a seed system's profile. */
  readonly profile?: string | undefined;
  /** `--alias-set` (serve, repeatable): alias sets to serve over MCP. */
  readonly aliasSet?: ReadonlyArray<string> | undefined;
}

/** Default port of `quiver serve`. */
export const DEFAULT_PORT = 7333;
/** Default bind address of `quiver serve`: loopback only. */
export const DEFAULT_HOST = "127.0.0.1";

const bool = (value: string, name: string): boolean => {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError([`${name}: expected true or false, got "${value}".`]);
};

const port = (value: string, name: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65_535) {
    throw new ConfigError([`${name}: expected a port number from 0 to 65535, got "${value}".`]);
  }
  return n;
};

/**
 * Host names and origins compare without case (RFC 3986): the allowlists are lowercased once here, so
 * the HTTP API's check and the MCP endpoint's (the SDK's, which compares as given) agree.
 */
const lowercased = <L extends "*" | ReadonlyArray<string>>(value: L): L =>
  (value === "*" ? value : value.map((entry) => entry.toLowerCase())) as L;

const list = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const parseValue = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Parses `--set weather.baseUrl=http://...` into { weather: { baseUrl: "http://..." } }. */
export const parseSetFlags = (sets: ReadonlyArray<string>): Map<string, Record<string, unknown>> => {
  const out = new Map<string, Record<string, unknown>>();
  const problems: string[] = [];
  for (const s of sets) {
    const eq = s.indexOf("=");
    const key = eq > 0 ? s.slice(0, eq) : "";
    const dot = key.indexOf(".");
    if (eq <= 0 || dot <= 0 || dot === key.length - 1) {
      problems.push(
        `--set ${s}: expected <plugin>.<option>=<value>, e.g. --set weather.baseUrl=http://127.0.0.1:8080`,
      );
      continue;
    }
    const plugin = key.slice(0, dot);
    const path = key.slice(dot + 1).split(".");
    const target = out.get(plugin) ?? {};
    let node: Record<string, unknown> = target;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== "object" || next === null) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[path.at(-1)!] = parseValue(s.slice(eq + 1));
    out.set(plugin, target);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
};

/**
 * Builds the host's settings from the command line, the environment and the config file, in that
 * order of precedence. Throws a `ConfigError` naming the file, variable or flag and the key.
 *
 * @example
 * const settings = await resolveSettings({ port: "8080" }, process.env)
 * settings.server.port // 8080, even when QUIVER_PORT or the file say otherwise
 */
export const resolveSettings = async (
  flags: HostFlags = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<HostSettings> => {
  const cwd = resolve(flags.cwd ?? process.cwd());
  const explicit = flags.config ?? (env.QUIVER_CONFIG || undefined);
  const origin = flags.config !== undefined ? "--config" : "QUIVER_CONFIG";
  const { path, config } = await loadConfig(cwd, explicit, origin);
  const baseDir = path ? dirname(path) : cwd;
  const fileName = path ? path.slice(baseDir.length + 1) : "config";
  const warnings: string[] = [];

  // Plugins: file entries, then --disable and --set.
  const plugins = new Map<string, PluginSettings>();
  for (const [key, entry] of Object.entries(config.plugins ?? {})) {
    plugins.set(
      key,
      typeof entry === "boolean"
        ? { enabled: entry, fileOptions: {}, flagOptions: {} }
        : { enabled: entry.enabled, fileOptions: entry.options ?? {}, flagOptions: {} },
    );
  }
  for (const key of flags.disable ?? []) {
    const prev = plugins.get(key);
    plugins.set(key, {
      enabled: false,
      fileOptions: prev?.fileOptions ?? {},
      flagOptions: prev?.flagOptions ?? {},
    });
  }
  for (const [key, options] of parseSetFlags(flags.set ?? [])) {
    const prev = plugins.get(key);
    plugins.set(key, {
      enabled: prev?.enabled,
      fileOptions: prev?.fileOptions ?? {},
      flagOptions: { ...prev?.flagOptions, ...options },
    });
  }

  // Tokens: file (values may be "env:VAR"), then QUIVER_TOKENS="token=principal,...".
  const tokens: Record<string, string> = {};
  for (const [token, principal] of Object.entries(config.tokens ?? {})) {
    if (token.startsWith("env:")) {
      const variable = token.slice(4);
      const value = env[variable];
      if (value) tokens[value] = principal;
      else warnings.push(`${fileName}: tokens: ${variable} is not set, so "${principal}" has no token.`);
    } else tokens[token] = principal;
  }
  if (env.QUIVER_TOKENS) {
    for (const pair of list(env.QUIVER_TOKENS)) {
      const eq = pair.lastIndexOf("=");
      if (eq <= 0 || eq === pair.length - 1) {
        throw new ConfigError([`QUIVER_TOKENS: expected token=principal pairs separated by commas.`]);
      }
      tokens[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }

  // Demo mode.
  const demoFile = typeof config.demo === "object" ? config.demo : { enabled: config.demo };
  const demoEnabled =
    flags.demo ?? (env.QUIVER_DEMO ? bool(env.QUIVER_DEMO, "QUIVER_DEMO") : (demoFile.enabled ?? false));
  const cacheDir =
    env.QUIVER_CACHE_DIR || (demoFile.cacheDir ? resolve(baseDir, demoFile.cacheDir) : undefined);

  // Server.
  const server = config.server ?? {};
  const shutdownRaw = env.QUIVER_SHUTDOWN_TIMEOUT ?? server.shutdownTimeout ?? "10s";
  let shutdownTimeoutMs: number;
  try {
    shutdownTimeoutMs = toMillis(
      (typeof shutdownRaw === "string" && /^\d+$/.test(shutdownRaw)
        ? Number(shutdownRaw)
        : shutdownRaw) as never,
    );
  } catch {
    throw new ConfigError([
      `QUIVER_SHUTDOWN_TIMEOUT: expected a duration such as "10s", got "${shutdownRaw}".`,
    ]);
  }
  const stores = redisStore(config.stores?.redis, env);
  const idleRaw =
    flags.sessionIdleTimeout ?? env.QUIVER_SESSION_IDLE_TIMEOUT ?? server.sessionIdleTimeout ?? "30 minutes";
  let sessionIdleTimeoutMs: number;
  try {
    sessionIdleTimeoutMs = toMillis(
      (typeof idleRaw === "string" && /^\d+$/.test(idleRaw) ? Number(idleRaw) : idleRaw) as never,
    );
  } catch {
    throw new ConfigError([
      `--session-idle-timeout / QUIVER_SESSION_IDLE_TIMEOUT: expected a duration such as "30 minutes", got "${idleRaw}".`,
    ]);
  }
  const count = (raw: string | undefined, name: string, fallback: number): number => {
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1)
      throw new ConfigError([`${name}: expected a positive integer, got "${raw}".`]);
    return n;
  };
  const origins = env.QUIVER_ALLOWED_ORIGINS;
  const hosts = env.QUIVER_ALLOWED_HOSTS;

  return {
    cwd,
    configFile: path,
    baseDir,
    demo: {
      enabled: demoEnabled,
      cacheDir: resolve(cacheDir ?? join(tmpdir(), "quiver-demo")),
    },
    discover: env.QUIVER_DISCOVER ? bool(env.QUIVER_DISCOVER, "QUIVER_DISCOVER") : (config.discover ?? true),
    projects: config.projects ? config.projects.map((p) => resolve(baseDir, p)) : [cwd],
    plugins,
    load: [
      ...(config.load ?? []).map((p) => resolveLoad(p, baseDir)),
      ...(flags.plugin ?? []).map((p) => resolveLoad(p, cwd)),
    ],
    policies: (config.policies ?? {}) as Record<string, ToolPolicy>,
    tokens,
    auth: resolveAuthSettings(config.auth, env, fileName, warnings),
    principal:
      flags.principal ??
      (env.QUIVER_PRINCIPAL || undefined) ??
      config.principal ??
      (demoEnabled ? "demo" : undefined),
    find: config.find ?? true,
    aliases: config.aliases ?? {},
    mcpServers: Object.fromEntries(
      Object.entries(config.mcpServers ?? {}).map(([name, { type: _type, ...server }]) => [
        name,
        ("cwd" in server && server.cwd
          ? { ...server, cwd: resolve(baseDir, server.cwd) }
          : server) as McpServerSettings,
      ]),
    ),
    stores,
    tasks: resolveTaskSettings(config.tasks),
    cassettes: cassetteSettings(flags, cwd),
    server: {
      host: flags.host ?? (env.QUIVER_HOST || undefined) ?? server.host ?? DEFAULT_HOST,
      port:
        flags.port !== undefined
          ? port(flags.port, "--port")
          : env.QUIVER_PORT
            ? port(env.QUIVER_PORT, "QUIVER_PORT")
            : (server.port ?? DEFAULT_PORT),
      allowedOrigins: lowercased(
        origins ? (origins === "*" ? "*" : list(origins)) : (server.allowedOrigins ?? defaultHosts),
      ),
      allowedHosts: lowercased(
        hosts ? (hosts === "*" ? "*" : list(hosts)) : (server.allowedHosts ?? defaultHosts),
      ),
      shutdownTimeoutMs,
      // Replicas on one Redis sit behind a load balancer: no MCP session may tie a client to one.
      stateless: env.QUIVER_STATELESS
        ? bool(env.QUIVER_STATELESS, "QUIVER_STATELESS")
        : (server.stateless ?? stores.redis !== undefined),
      maxSessionsPerPrincipal: count(
        flags.maxSessionsPerPrincipal ?? env.QUIVER_MAX_SESSIONS_PER_PRINCIPAL,
        flags.maxSessionsPerPrincipal !== undefined
          ? "--max-sessions-per-principal"
          : "QUIVER_MAX_SESSIONS_PER_PRINCIPAL",
        server.maxSessionsPerPrincipal ?? 100,
      ),
      maxSessions: count(env.QUIVER_MAX_SESSIONS, "QUIVER_MAX_SESSIONS", server.maxSessions ?? 1_000),
      sessionIdleTimeoutMs,
    },
    env,
    warnings,
    profile: await profileName(flags.profile, config.profile, fileName),
    aliasSets: [...new Set(flags.aliasSet ?? config.aliasSets ?? [])],
  };
};

/** The profile asked for (the flag wins over the file), or a ConfigError naming the valid ones. */
const profileName = async (
  flag: string | undefined,
  file: string | undefined,
  fileName: string,
): Promise<SeedProfileName | undefined> => {
  const name = flag ?? file;
  if (name === undefined) return undefined;
  // The seed profiles load only when one is named: a plain `quiver serve` starts without them.
  const { SEED_PROFILE_NAMES } = await import("@quiver/adapters/seeds");
  if ((SEED_PROFILE_NAMES as ReadonlyArray<string>).includes(name)) return name as SeedProfileName;
  const near = closestMatches(SEED_PROFILE_NAMES, name, { limit: 1 })[0];
  throw new ConfigError([
    `${flag !== undefined ? "--profile" : `${fileName}: profile`}: unknown profile "${name}"; the profiles are ${SEED_PROFILE_NAMES.join(", ")}${near ? ` (did you mean "${near}"?)` : ""}.`,
  ]);
};

/** `--record` / `--replay` / `--replay-or-record` (at most one) and `--replay-timing`. */
const cassetteSettings = (flags: HostFlags, cwd: string): HostSettings["cassettes"] => {
  const given = (
    [
      ["--record", "record", flags.record],
      ["--replay", "replay", flags.replay],
      ["--replay-or-record", "replay-or-record", flags.replayOrRecord],
    ] as const
  ).filter(([, , dir]) => dir !== undefined);
  if (given.length > 1) {
    throw new ConfigError([`${given.map(([flag]) => flag).join(" and ")}: give only one of them.`]);
  }
  const timing = flags.replayTiming ?? "instant";
  if (timing !== "instant" && timing !== "recorded") {
    throw new ConfigError([`--replay-timing: expected "instant" or "recorded", got "${timing}".`]);
  }
  const [chosen] = given;
  if (!chosen) {
    if (flags.replayTiming !== undefined) {
      throw new ConfigError(["--replay-timing: only with --replay or --replay-or-record."]);
    }
    return undefined;
  }
  const [flag, mode, dir = ""] = chosen;
  if (dir.trim() === "") throw new ConfigError([`${flag}: expected a folder.`]);
  return { dir: resolve(cwd, dir), mode, timing };
};

/**
 * The Redis store: QUIVER_REDIS_URL, else REDIS_URL (the name hosting platforms set), else the file's
 * `stores.redis.url`.
 */
const redisStore = (
  file: { readonly url: string; readonly prefix?: string | undefined } | undefined,
  env: Readonly<Record<string, string | undefined>>,
): HostSettings["stores"] => {
  const from = env.QUIVER_REDIS_URL ? "QUIVER_REDIS_URL" : env.REDIS_URL ? "REDIS_URL" : "stores.redis.url";
  const url = env.QUIVER_REDIS_URL || env.REDIS_URL || file?.url;
  if (!url) return {};
  if (!/^rediss?:\/\/\S+$/.test(url))
    throw new ConfigError([`${from}: expected a redis:// or rediss:// URL.`]);
  return { redis: { url, ...(file?.prefix ? { prefix: file.prefix } : {}) } };
};

const defaultHosts = ["localhost", "127.0.0.1", "[::1]"] as const;

/** A path (starts with . or /) is made absolute against `base`; a package name is kept. */
const resolveLoad = (spec: string, base: string) =>
  spec.startsWith(".") || spec.startsWith("/") ? resolve(base, spec) : spec;
