import { type DurationInput, secret, toMillis } from "@quiver/core";
import { z } from "zod";
import { type DocsClient, isDocsClient, isMcpToolCaller, type McpToolCaller } from "./docs-client.js";

/**
 * Context7's HTTP API, as documented (the MCP server lets `CONTEXT7_API_URL` override it).
 *
 * @example
 * createContext7Plugin({ baseUrl: DEFAULT_BASE_URL });
 */
export const DEFAULT_BASE_URL = "https://context7.com/api";

/** How long a resolved library id is reused: ids change rarely, so days. */
export const DEFAULT_LIBRARY_CACHE_TTL = "7d";

const duration = z.union([z.number().nonnegative(), z.string().min(1)]).transform((value, ctx) => {
  try {
    return toMillis(value as DurationInput);
  } catch {
    ctx.addIssue({
      code: "custom",
      message: `"${String(value)}" is not a duration (try "7d", "12h", "30m")`,
    });
    return z.NEVER;
  }
});

const fields = z.object({
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ""))
    .describe("Base URL of Context7's HTTP API (without /v2)."),
  apiKey: secret().optional().describe("Context7 API key (ctx7sk-…); optional, raises the rate limits."),
  transport: z
    .enum(["http", "mcp"])
    .describe("http: Context7's HTTP API; mcp: the Context7 MCP server via the host's bridge."),
  mcpClient: z
    .custom<McpToolCaller>(isMcpToolCaller, "mcpClient must have a callTool(call, { signal }) method")
    .optional()
    .describe("The host's MCP client bridge connected to the Context7 MCP server (transport mcp)."),
  docsClient: z
    .custom<DocsClient>(isDocsClient, "docsClient must have searchLibraries and getContext methods")
    .optional()
    .describe("A transport to use instead of the built-in ones."),
  libraryCacheTtl: duration.describe("How long a resolved library id is reused."),
});

/**
 * The plugin's settings after parsing (secrets as Redacted, durations in milliseconds); tools read
 * them as `ctx.config`.
 *
 * @example
 * const ttlMs: Context7Config["libraryCacheTtl"] = 7 * 86_400_000;
 */
export type Context7Config = z.output<typeof fields>;

/**
 * Options of {@link createContext7Plugin}: defaults for the plugin's settings. Environment variables
 * (`CONTEXT7_API_KEY`, `CONTEXT7_API_URL`) and the host's per-plugin options win over them.
 *
 * @example
 * const options: Context7PluginOptions = { apiKey: process.env.MY_CTX7_KEY, libraryCacheTtl: "1d" };
 */
export interface Context7PluginOptions {
  /** Base URL of the HTTP API. Default `https://context7.com/api`. */
  readonly baseUrl?: string;
  /** Context7 API key; optional (anonymous calls get low rate limits). */
  readonly apiKey?: string;
  /** `"http"` (default) or `"mcp"` (needs `mcpClient`). */
  readonly transport?: "http" | "mcp";
  /** The host's MCP client bridge to the Context7 MCP server, for `transport: "mcp"`. */
  readonly mcpClient?: McpToolCaller;
  /** A transport of your own; wins over `transport`. */
  readonly docsClient?: DocsClient;
  /** How long resolved library ids are reused. Default `"7d"`. */
  readonly libraryCacheTtl?: DurationInput;
}

/** Environment variable of each setting. */
export const CONTEXT7_ENV = { apiKey: "CONTEXT7_API_KEY", baseUrl: "CONTEXT7_API_URL" } as const;

/**
 * The config schema, with `defaults` (the factory's options) under the values the host supplies.
 * Choosing `transport: "mcp"` without an `mcpClient` or `docsClient` leaves the plugin unconfigured,
 * so its tools answer `unavailable` and say what is missing.
 *
 * @example
 * const parsed = context7ConfigSchema({ libraryCacheTtl: "1d" }).parse({ apiKey: "ctx7sk-…" });
 */
export const context7ConfigSchema = (defaults: Context7PluginOptions = {}): z.ZodType<Context7Config> =>
  z.preprocess(
    (raw) => ({
      baseUrl: DEFAULT_BASE_URL,
      transport: "http",
      libraryCacheTtl: DEFAULT_LIBRARY_CACHE_TTL,
      ...Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined)),
      ...(typeof raw === "object" && raw !== null ? raw : {}),
    }),
    fields.superRefine((config, ctx) => {
      if (config.transport === "mcp" && !config.mcpClient && !config.docsClient) {
        ctx.addIssue({
          code: "custom",
          path: ["mcpClient"],
          message:
            'transport "mcp" needs the host\'s MCP client bridge (pass mcpClient), or set transport "http" to use Context7\'s HTTP API',
        });
      }
    }),
  ) as unknown as z.ZodType<Context7Config>;
