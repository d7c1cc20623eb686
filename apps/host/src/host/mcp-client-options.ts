import { isAbsolute, resolve } from "node:path";
import type { AnyPlugin } from "@quiver/core";
import { connectMcpToolCaller } from "@quiver/mcp";
import { z } from "zod";

const stdioTarget = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
  })
  .strict();
const httpTarget = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();
const mcpTarget = z.union([stdioTarget, httpTarget]);

/** Plugin options after wiring, and how to release what the wiring opened. */
export interface WiredOptions {
  readonly options: Record<string, unknown>;
  /** Closes the MCP connection made for the plugin (undefined when none was made). */
  readonly close: (() => Promise<void>) | undefined;
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${NAME}` with the host environment's value; an unset variable is an error naming it. */
const expand = (value: string, where: string, env: Readonly<Record<string, string | undefined>>): string =>
  value.replace(VARIABLE, (_, name: string) => {
    const v = env[name];
    if (v === undefined || v === "") throw new Error(`${where} uses \${${name}}, which is not set.`);
    return v;
  });

const expandAll = (
  record: Readonly<Record<string, string>> | undefined,
  where: string,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> =>
  Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expand(v, `${where}.${k}`, env)]));

/**
 * Gives a plugin configured with `transport: "mcp"` and an `mcp` target (`{ command, args?, env?,
 * cwd? }` or `{ url, headers? }`) an `mcpClient`: a lazily connected `connectMcpToolCaller` to that
 * MCP server (Context7's `@upstash/context7-mcp`, for one). The `mcp` key is replaced by
 * `mcpClient`; other options pass through untouched, as do options that already carry an
 * `mcpClient` or do not ask for the MCP transport.
 *
 * `${NAME}` in `args`, `env` and `headers` values is read from the host's environment; a spawned
 * server also gets the plugin's own variables that are set (`CONTEXT7_API_KEY` …), and runs in
 * `baseDir` (the config file's folder) unless `cwd` says otherwise. Throws with a message naming the
 * key when the target is malformed or names an unset variable.
 *
 * @example
 * const wired = wireMcpClient(context7, { transport: "mcp", mcp: { command: "npx", args: ["-y", "@upstash/context7-mcp"] } }, env, dir)
 * catalog.register(context7, wired.options) // later: await wired.close?.()
 */
export const wireMcpClient = (
  plugin: AnyPlugin,
  options: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  baseDir: string,
): WiredOptions => {
  if (options.transport !== "mcp" || options.mcp === undefined || options.mcpClient !== undefined) {
    return { options, close: undefined };
  }
  const parsed = mcpTarget.safeParse(options.mcp);
  if (!parsed.success) {
    throw new Error(
      `options.mcp must be { command, args?, env?, cwd? } (a server over stdio) or { url, headers? } (Streamable HTTP): ${z.prettifyError(parsed.error).replace(/\n/g, " ")}`,
    );
  }
  const target = parsed.data;
  const { mcp: _, ...rest } = options;
  const caller =
    "url" in target
      ? connectMcpToolCaller({
          name: plugin.id,
          url: target.url,
          headers: expandAll(target.headers, "options.mcp.headers", env),
        })
      : connectMcpToolCaller({
          name: plugin.id,
          command: target.command,
          args: (target.args ?? []).map((a, i) => expand(a, `options.mcp.args[${i}]`, env)),
          env: {
            // The plugin's own settings (an API key) reach the server it talks through.
            ...Object.fromEntries(
              Object.values(plugin.env ?? {})
                .filter((name) => env[name] !== undefined && env[name] !== "")
                .map((name) => [name, env[name]!]),
            ),
            ...expandAll(target.env, "options.mcp.env", env),
          },
          cwd: target.cwd ? (isAbsolute(target.cwd) ? target.cwd : resolve(baseDir, target.cwd)) : baseDir,
        });
  return { options: { ...rest, mcpClient: caller }, close: () => caller.close() };
};
