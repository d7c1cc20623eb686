import { isAbsolute, resolve } from "node:path";
import { fail, makeRedactor, reveal } from "@quiver/core";
import pkg from "../../package.json" with { type: "json" };
import type { Context7Config } from "../config.js";
import type { McpCallResult, McpToolCaller } from "./docs-client.js";

type Env = Readonly<Record<string, string | undefined>>;
type Target = NonNullable<Context7Config["mcp"]>;

/** The MCP SDK's client package: an optional peer, needed only for `transport: "mcp"` with `mcp`. */
const MCP_SDK = "@modelcontextprotocol/client";

/** A connection to the Context7 MCP server: the plugin's {@link McpToolCaller}, closed with the catalog. */
export interface Context7McpConnection extends McpToolCaller {
  /** Ends the connection (and a spawned server). A later call opens a new one. */
  close(): Promise<void>;
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${NAME}` with the environment's value; an unset variable is an error naming it. */
const expand = (value: string, where: string, env: Env): string =>
  value.replace(VARIABLE, (_, name: string) => {
    const v = env[name];
    if (v === undefined || v === "") throw new Error(`${where} uses \${${name}}, which is not set.`);
    return v;
  });

const expandAll = (record: Readonly<Record<string, string>> | undefined, where: string, env: Env) =>
  Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expand(v, `${where}.${k}`, env)]));

/**
 * The SDK's client and stdio modules, imported when a connection is made. A missing peer is an error that
 * says what to install: importing the plugin (`quiver list`, the HTTP transport) never needs the SDK.
 */
const importSdk = async () => {
  try {
    const [client, stdio] = await Promise.all([
      import("@modelcontextprotocol/client"),
      import("@modelcontextprotocol/client/stdio"),
    ]);
    return { ...client, ...stdio };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" && String((error as Error).message).includes(MCP_SDK)) {
      throw new Error(
        `transport "mcp" needs the MCP SDK client, which is not installed: install ${MCP_SDK} beside @quiver/plugin-context7 (npm install ${MCP_SDK}, or pnpm add ${MCP_SDK}), or set transport "http" to use Context7's HTTP API.`,
      );
    }
    throw error;
  }
};

const STDERR_LINES = 5;
/** The handshake's limit; a server that never answers it is unavailable, not a hung registration. */
const CONNECT_TIMEOUT_MS = 30_000;
/** The protocol's limit for one call; the tool's own timeout policy aborts sooner through `signal`. */
const CALL_TIMEOUT_MS = 600_000;

/**
 * A lazily connected client of the Context7 MCP server (`config.mcp`), with the MCP SDK's `Client`: the
 * connection opens at the first call, a lost one is dropped and the next call reconnects (respawning a
 * command that exited). A spawned server gets the plugin's own settings (`CONTEXT7_API_KEY`,
 * `CONTEXT7_API_URL`) and runs in `cwd` (relative to this process's folder). Rejects when the SDK is not
 * installed or a `${NAME}` is not set. A failed call is a ToolFailure: `access_denied` when a remote server
 * refuses the credentials (HTTP 401/403), `upstream` for a protocol error, `timeout`, and otherwise
 * `unavailable` naming the server and the last lines of its stderr; secrets (header and env values) are
 * replaced in every message.
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
  const sdk = await importSdk();
  const headers = "url" in target ? expandAll(target.headers, "mcp.headers", env) : {};
  // A spawned server reads its settings from its environment, under the names the plugin's settings use
  // (the key as the plugin resolved it, from CONTEXT7_API_KEY or its options).
  const own = {
    ...(env.CONTEXT7_API_URL ? { CONTEXT7_API_URL: env.CONTEXT7_API_URL } : {}),
    ...(config.apiKey ? { CONTEXT7_API_KEY: reveal(config.apiKey) } : {}),
  };
  const spawnEnv: Record<string, string> =
    "url" in target ? {} : { ...own, ...expandAll(target.env, "mcp.env", env) };
  const args = "url" in target ? [] : (target.args ?? []).map((a, i) => expand(a, `mcp.args[${i}]`, env));
  const redact = makeRedactor(
    [...Object.values(headers), ...Object.values(spawnEnv)].filter((v) => v.length >= 4),
  );
  const label = redact("url" in target ? target.url : `stdio: ${[target.command, ...args].join(" ")}`);
  const stderr: string[] = [];

  const transport = () => {
    if ("url" in target) {
      return new sdk.StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers } });
    }
    const stdio = new sdk.StdioClientTransport({
      command: target.command,
      args,
      // The SDK replaces the whole environment when `env` is given; keep PATH, HOME and the like.
      env: { ...sdk.getDefaultEnvironment(), ...spawnEnv },
      stderr: "pipe",
      ...(target.cwd ? { cwd: isAbsolute(target.cwd) ? target.cwd : resolve(target.cwd) } : {}),
    });
    stdio.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() !== "") stderr.push(line);
      }
      stderr.splice(0, Math.max(0, stderr.length - STDERR_LINES));
    });
    return stdio;
  };

  type Client = InstanceType<typeof sdk.Client>;
  let current: Promise<Client> | undefined;
  /** The open connection, or a new one; a connection that closes (the server exited, the session ended) is dropped. */
  const client = (): Promise<Client> => {
    if (current) return current;
    const opening = (async () => {
      const client = new sdk.Client(
        { name: "quiver-plugin-context7", version: pkg.version },
        { capabilities: {} },
      );
      client.onclose = () => {
        if (current === opening) current = undefined;
      };
      try {
        await client.connect(transport(), { timeout: CONNECT_TIMEOUT_MS });
      } catch (error) {
        // A child that started but never answered must not outlive the failed attempt.
        await client.close().catch(() => {});
        throw error;
      }
      return client;
    })();
    current = opening;
    opening.catch(() => {
      if (current === opening) current = undefined;
    });
    return opening;
  };
  const drop = async (): Promise<void> => {
    const open = current;
    current = undefined;
    if (open) await (await open.catch(() => undefined))?.close().catch(() => {});
  };

  /** A failed call as a ToolFailure: refused credentials, a protocol error, a timeout, or no server. */
  const failure = async (tool: string, error: unknown) => {
    const message = redact(messageOf(error));
    if (error instanceof sdk.SdkHttpError && (error.status === 401 || error.status === 403)) {
      return fail.accessDenied(`The MCP server "context7" (${label}) refused the credentials: ${message}`, {
        suggestion:
          "Check the Authorization header in mcp.headers (or CONTEXT7_API_KEY for a spawned server).",
      });
    }
    if (error instanceof sdk.ProtocolError) {
      return fail.upstream(`${tool} on the MCP server "context7" failed: ${message}`, { retryable: false });
    }
    if (error instanceof sdk.SdkError && error.code === sdk.SdkErrorCode.RequestTimeout) {
      return fail.timeout(`${tool} on the MCP server "context7" did not answer in time.`);
    }
    // A dead pipe, a lost session, a server that cannot start or be reached: the next call reconnects.
    await drop();
    const tail = redact(stderr.join("\n"));
    return fail.unavailable(
      `The MCP server "context7" (${label}) could not be reached: ${message}${tail ? ` — its stderr: ${tail}` : ""}`,
      {
        retryable: true,
        suggestion: "Check that the command runs on its own (or that the URL answers), then try again.",
      },
    );
  };

  return {
    callTool: async (call, { signal }) => {
      try {
        const result = await (await client()).callTool(
          { name: call.name, arguments: { ...call.arguments } },
          { signal, timeout: CALL_TIMEOUT_MS },
        );
        return {
          content: (result.content ?? []) as McpCallResult["content"],
          ...(result.isError ? { isError: true } : {}),
        };
      } catch (error) {
        if (signal.aborted) throw error;
        throw await failure(call.name, error);
      }
    },
    close: drop,
  };
};

/** An error's message, with its cause's when that says more (a fetch failure's "ECONNREFUSED"). */
const messageOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message && !error.message.includes(cause.message)
    ? `${error.message} (${cause.message})`
    : error.message;
};
