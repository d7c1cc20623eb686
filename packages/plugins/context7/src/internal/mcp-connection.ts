import { resolve } from "node:path";
import { fail, ToolFailure } from "@quiver/core";
import * as Redacted from "effect/Redacted";
import type { Context7Config } from "../config.js";
import type { McpToolCaller } from "./docs-client.js";

type Env = Readonly<Record<string, string | undefined>>;
type Target = NonNullable<Context7Config["mcp"]>;

/** The MCP SDK's client package: an optional peer, needed only for `transport: "mcp"` with `mcp`. */
const MCP_SDK = "@modelcontextprotocol/client";

/** A connection to the Context7 MCP server: the plugin's {@link McpToolCaller}, closed with the catalog. */
export interface Context7McpConnection extends McpToolCaller {
  /** What it points at, without secrets ("stdio: npx -y @upstash/context7-mcp" or the URL). */
  readonly label: string;
  /** Ends the connection (and a spawned server). A later call opens a new one. */
  close(): Promise<void>;
}

/** Replaces `${NAME}` with the environment's value; an unset variable is an error naming it. */
const expand = (value: string, where: string, env: Env): string =>
  value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = env[name];
    if (v === undefined || v === "") throw new Error(`${where} uses \${${name}}, which is not set.`);
    return v;
  });

const expandAll = (record: Readonly<Record<string, string>> | undefined, where: string, env: Env) =>
  Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expand(v, `${where}.${k}`, env)]));

/**
 * `@quiver/mcp` and the SDK's client, imported when a connection is made. A missing one is an error that
 * says what to install: importing the plugin (`quiver list`, the HTTP transport) never needs them.
 */
const importMcp = async () => {
  try {
    return await import("@quiver/mcp");
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === "ERR_MODULE_NOT_FOUND" && /@quiver\/mcp|@modelcontextprotocol\//.test(String(message))) {
      const install = `${MCP_SDK} @quiver/mcp`;
      throw new Error(
        `transport "mcp" needs the MCP SDK client, which is not installed: install ${MCP_SDK} and @quiver/mcp beside @quiver/plugin-context7 (npm install ${install}, or pnpm add ${install}), or set transport "http" to use Context7's HTTP API.`,
      );
    }
    throw error;
  }
};

/**
 * A lazily connected client of the Context7 MCP server (`config.mcp`), with `@quiver/mcp`'s
 * `connectMcpToolCaller`: the connection opens at the first call, a lost one is dropped and the next call
 * reconnects (respawning a command that exited), and failures are ToolFailures naming the server (and the
 * last lines of its stderr) with secrets replaced. `${NAME}` in `args`, `env` and `headers` is read from
 * `env` (an unset one rejects); a spawned server gets `CONTEXT7_API_KEY`/`CONTEXT7_API_URL` and runs in
 * `cwd` (relative to this process's folder). A remote server that refuses the credentials (HTTP 401/403)
 * is `access_denied`.
 *
 * @example
 * const connection = await connectContext7Mcp({ command: "npx", args: ["-y", "@upstash/context7-mcp"] }, config, process.env);
 * const result = await connection.callTool({ name: "resolve-library-id", arguments: { libraryName: "react", query: "hooks" } }, { signal });
 */
export const connectContext7Mcp = async (
  target: Target,
  config: Context7Config,
  env: Env,
): Promise<Context7McpConnection> => {
  const { connectMcpToolCaller } = await importMcp();
  const own = {
    ...(env.CONTEXT7_API_URL ? { CONTEXT7_API_URL: env.CONTEXT7_API_URL } : {}),
    // The one plain read of the key: a spawned server takes it from its environment.
    ...(config.apiKey ? { CONTEXT7_API_KEY: Redacted.value(config.apiKey) } : {}),
  };
  const caller = connectMcpToolCaller({
    name: "context7",
    ...("url" in target
      ? { url: target.url, headers: expandAll(target.headers, "mcp.headers", env) }
      : {
          command: target.command,
          args: (target.args ?? []).map((a, i) => expand(a, `mcp.args[${i}]`, env)),
          env: { ...own, ...expandAll(target.env, "mcp.env", env) },
          ...(target.cwd ? { cwd: resolve(target.cwd) } : {}),
        }),
  });
  return {
    label: caller.label,
    callTool: async (call, { signal }) => {
      try {
        return await caller.callTool(call, { signal });
      } catch (error) {
        if (!ToolFailure.isInstance(error) || error.kind !== "access_denied") throw error;
        throw fail.accessDenied(
          `The MCP server "context7" (${caller.label}) refused the credentials: ${error.message}`,
          {
            suggestion:
              "Check the Authorization header in mcp.headers (or CONTEXT7_API_KEY for a spawned server).",
          },
        );
      }
    },
    close: () => caller.close(),
  };
};
