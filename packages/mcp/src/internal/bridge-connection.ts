import {
  Client,
  type RequestOptions,
  StreamableHTTPClientTransport,
  type Tool,
} from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { fail, makeRedactor } from "@quiver/core";
import pkg from "../../package.json" with { type: "json" };
import type { McpTarget } from "../mcp-target.js";

/** Where the remote MCP server is: a command to spawn (stdio) or a Streamable HTTP URL. */
export interface BridgeTarget extends McpTarget {
  readonly connectTimeoutMs?: number;
}

/** The result of a remote tools/call, as the SDK returns it. */
export type RemoteCallResult = Awaited<ReturnType<Client["callTool"]>>;

/** A lazily opened, self-healing client connection to one remote MCP server. */
export interface BridgeConnection {
  /** What the connection points at, without secrets ("stdio: node server.js" or the URL). */
  readonly label: string;
  /** Header values, env values and secret-looking flag values to keep out of messages. */
  readonly secrets: ReadonlyArray<string>;
  /** Connects (once; again after the connection was lost) and returns the client. */
  client(): Promise<Client>;
  listTools(): Promise<ReadonlyArray<Tool>>;
  callTool(name: string, args: Record<string, unknown>, options: RequestOptions): Promise<RemoteCallResult>;
  /** The server's name and version from initialisation, once connected. */
  serverInfo(): { readonly name: string; readonly version: string } | undefined;
  /** The last lines the stdio server wrote to stderr (for error messages). */
  stderrTail(): string;
  /** Drops the current connection (a lost HTTP session, a dead pipe): the next use reconnects. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const STDERR_LINES = 20;

/** Opens connections to `target` on demand; a lost connection is reopened on the next use. */
export const createBridgeConnection = (id: string, target: BridgeTarget): BridgeConnection => {
  if (!target.command === !target.url) {
    throw new TypeError(
      `MCP bridge "${id}" needs exactly one of \`command\` (stdio) or \`url\` (Streamable HTTP).`,
    );
  }
  const secrets = [
    ...Object.values(target.headers ?? {}),
    ...Object.values(target.env ?? {}),
    ...secretArgs(target.args ?? []),
  ].filter((v) => v.length >= 4);
  const label = redact(
    target.url ? target.url : `stdio: ${[target.command, ...(target.args ?? [])].join(" ")}`,
    secrets,
  );
  const stderr: string[] = [];
  let current: Promise<Client> | undefined;
  // Progress listeners by the token this connection put in the call's `_meta`. The SDK's own
  // `onprogress` loses the last step: it drops its listener when the result arrives, but it hands
  // notifications to their handler a microtask later, so a step sent right before the result is
  // gone. This map keeps a call's listener until the call has settled.
  const progress = new Map<string, NonNullable<RequestOptions["onprogress"]>>();
  let nextToken = 0;

  const makeTransport = () => {
    if (target.url) {
      return new StreamableHTTPClientTransport(new URL(target.url), {
        requestInit: { headers: { ...target.headers } },
      });
    }
    const transport = new StdioClientTransport({
      command: target.command!,
      args: [...(target.args ?? [])],
      // The SDK replaces the whole environment when `env` is given; keep PATH, HOME and the like.
      env: { ...getDefaultEnvironment(), ...target.env },
      stderr: "pipe",
      ...(target.cwd ? { cwd: target.cwd } : {}),
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() === "") continue;
        stderr.push(line);
        if (stderr.length > STDERR_LINES) stderr.shift();
      }
    });
    return transport;
  };

  const connect = async (): Promise<Client> => {
    const client = new Client({ name: `quiver-bridge-${id}`, version: pkg.version }, { capabilities: {} });
    client.setNotificationHandler("notifications/progress", (n) => {
      const { progressToken, ...rest } = n.params;
      progress.get(String(progressToken))?.(rest);
    });
    client.onclose = () => {
      if (current && connected === client) current = undefined;
    };
    try {
      await client.connect(makeTransport(), { timeout: target.connectTimeoutMs ?? 30_000 });
    } catch (error) {
      // A child that started but never answered must not outlive the failed attempt.
      await client.close().catch(() => {});
      throw error;
    }
    connected = client;
    return client;
  };
  let connected: Client | undefined;

  const drop = async () => {
    const c = current;
    current = undefined;
    connected = undefined;
    if (c) await (await c.catch(() => undefined))?.close().catch(() => {});
  };

  const client = (): Promise<Client> => {
    current ??= connect().catch((error: unknown) => {
      current = undefined;
      throw error;
    });
    return current;
  };

  return {
    label,
    secrets,
    client,
    listTools: async () => (await (await client()).listTools()).tools,
    callTool: async (name, args, { onprogress, ...options }) => {
      if (!onprogress) return (await client()).callTool({ name, arguments: args }, options);
      const token = `quiver-${id}-${++nextToken}`;
      progress.set(token, onprogress);
      try {
        return await (await client()).callTool(
          { name, arguments: args, _meta: { progressToken: token } },
          { ...options, resetTimeoutOnProgress: false },
        );
      } finally {
        progress.delete(token);
      }
    },
    serverInfo: () => {
      const info = connected?.getServerVersion();
      return info ? { name: info.name, version: info.version } : undefined;
    },
    stderrTail: () => stderr.slice(-5).join("\n"),
    reset: () => drop(),
    close: () => drop(),
  };
};

/** A failure to reach the remote server, as an `unavailable` ToolFailure with what would fix it. */
export const unreachable = (id: string, conn: BridgeConnection, error: unknown) => {
  const tail = redact(conn.stderrTail(), conn.secrets);
  return fail.unavailable(
    `The MCP server "${id}" (${conn.label}) could not be reached: ${redact(errorMessage(error), conn.secrets)}${tail ? ` — its stderr: ${tail}` : ""}`,
    {
      retryable: true,
      suggestion: "Check that the command runs on its own (or that the URL answers), then try again.",
      cause: error,
    },
  );
};

export const errorMessage = (error: unknown): string => {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message && !error.message.includes(cause.message)
      ? `${error.message} (${cause.message})`
      : error.message;
  }
  return String(error);
};

const SECRET_FLAG = /(key|token|secret|password|auth)/i;

/** Values of secret-looking command-line flags: `--api-key X`, `--token=X`. */
const secretArgs = (args: ReadonlyArray<string>): string[] => {
  const out: string[] = [];
  args.forEach((arg, i) => {
    if (!arg.startsWith("-") || !SECRET_FLAG.test(arg)) return;
    const eq = arg.indexOf("=");
    if (eq > 0) out.push(arg.slice(eq + 1));
    else if (args[i + 1] !== undefined && !args[i + 1]!.startsWith("-")) out.push(args[i + 1]!);
  });
  return out;
};

/** Replaces secret values (header tokens) and credential-looking URL parameters in a text, by core's redactor. */
export const redact = (text: string, secrets: ReadonlyArray<string>): string => makeRedactor(secrets)(text);
