import { type DurationInput, secret, setting, toMillis } from "@quiver/core";
import { z } from "zod";
import type { DocsClient, McpToolCaller } from "./internal/docs-client.js";

/** An injected object (`mcpClient`, `docsClient`): anything with these methods, else `message`. */
const withMethods = <T>(message: string, ...names: string[]) =>
  z.custom<T>(
    (u) =>
      typeof u === "object" &&
      u !== null &&
      names.every((n) => typeof (u as Record<string, unknown>)[n] === "function"),
    message,
  );

/** A duration ("7d", "12h", 30000) in milliseconds. */
const duration = z.union([z.number().nonnegative(), z.string().min(1)]).transform((value, ctx) => {
  try {
    return toMillis(value as DurationInput);
  } catch {
    ctx.addIssue({ code: "custom", message: `"${value}" is not a duration (try "7d", "12h", "30m")` });
    return z.NEVER;
  }
});

/** A Context7 MCP server spawned over stdio (`npx -y @upstash/context7-mcp`). */
const stdioTarget = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
});

/** A Context7 MCP server over Streamable HTTP (`https://mcp.context7.com/mcp`). */
const httpTarget = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
});

/**
 * The plugin's settings: transport, HTTP API base URL and key, MCP server, library-id cache. The
 * default base URL is Context7's HTTP API as documented (the MCP server lets `CONTEXT7_API_URL`
 * override it too).
 */
export const context7ConfigSchema = z
  .object({
    baseUrl: setting(z.url({ protocol: /^https?$/ }).default("https://context7.com/api"), {
      env: "CONTEXT7_API_URL",
    }).describe("Base URL of Context7's HTTP API (without /v2)."),
    apiKey: secret({ env: "CONTEXT7_API_KEY" })
      .optional()
      .describe("Context7 API key (ctx7sk-…); optional, raises the rate limits."),
    transport: z
      .enum(["http", "mcp"])
      .default("http")
      .describe("http: Context7's HTTP API; mcp: the Context7 MCP server named by `mcp`."),
    mcp: z
      .union([stdioTarget, httpTarget])
      .optional()
      .describe(
        "The Context7 MCP server for transport mcp: { command, args?, env?, cwd? } (stdio) or { url, headers? } (Streamable HTTP); $NAME placeholders (in braces) in args, env and headers is read from the environment.",
      ),
    mcpClient: withMethods<McpToolCaller>(
      "mcpClient must have a callTool(call, { signal }) method",
      "callTool",
    )
      .optional()
      .describe(
        "An MCP client already connected to the Context7 MCP server (transport mcp), instead of `mcp`.",
      ),
    docsClient: withMethods<DocsClient>(
      "docsClient must have searchLibraries and getContext methods",
      "searchLibraries",
      "getContext",
    )
      .optional()
      .describe("A transport to use instead of the built-in ones."),
    libraryCacheTtl: duration.prefault("7d").describe("How long a resolved library id is reused."),
  })
  .refine((config) => config.transport !== "mcp" || config.mcp || config.mcpClient || config.docsClient, {
    path: ["mcp"],
    message:
      'transport "mcp" needs the Context7 MCP server: set mcp to { command, args } or { url }, or set transport "http" to use Context7\'s HTTP API',
  });

/**
 * The plugin's settings after parsing (secrets as Redacted, durations in milliseconds); tools read
 * them as `ctx.config`.
 */
export type Context7Config = z.output<typeof context7ConfigSchema>;

/** Where the Context7 MCP server is: a command over stdio, or a Streamable HTTP URL. */
export type Context7McpTarget = z.input<typeof stdioTarget> | z.input<typeof httpTarget>;
