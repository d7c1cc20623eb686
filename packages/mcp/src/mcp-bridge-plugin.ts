import type { Tool as RemoteTool } from "@modelcontextprotocol/client";
import {
  type AnyTool,
  type ContentPart,
  contentPartSchema,
  definePlugin,
  defineTool,
  outcome,
  type Plugin,
  type ToolCategory,
  type ToolPolicy,
} from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { fromMcpAnnotations } from "./internal/annotations.js";
import { type BridgeConnection, createBridgeConnection, unreachable } from "./internal/bridge-connection.js";
import { dataFromRemote, failureFromError } from "./internal/remote-result.js";
import { remoteInputSchema, remoteOutputSchema } from "./internal/remote-schema.js";
import type { McpTarget } from "./mcp-target.js";

/** A remote tool as tools/list describes it (the MCP `Tool` shape). */
export type McpRemoteTool = RemoteTool;

/** Options of an MCP bridge: which server, and how its tools appear in Quiver. */
export interface McpBridgeOptions extends McpTarget {
  /** The plugin id (`^[a-z0-9][a-z0-9-]*$`), e.g. "everything". */
  readonly id: string;
  /** Prepended to every remote tool name (default ""); names are also made valid and unique. */
  readonly toolPrefix?: string;
  /** Bridge only these remote tools (by remote name). */
  readonly include?: ReadonlyArray<string>;
  /** The category of the bridged tools (default "mcp_server"). */
  readonly category?: ToolCategory;
  /** Policy for every bridged tool (timeout, retry, cache ...); the host can still override per tool. */
  readonly policy?: ToolPolicy;
  /** Plugin version (default: the remote server's version once known, else this package's). */
  readonly version?: string;
  readonly description?: string;
  /** Longest a remote call may take at the protocol level, in ms (default 10 minutes; the policy timeout usually ends it first). */
  readonly requestTimeoutMs?: number;
  /** Longest the connection handshake may take, in ms (default 30 seconds). */
  readonly connectTimeoutMs?: number;
}

/** Options of `createMcpBridgePlugin`: the bridge options plus the remote tools to expose. */
export interface McpBridgePluginOptions extends McpBridgeOptions {
  /** The remote tools, as the server listed them (from `loadMcpBridgePlugin`, or saved from an earlier listing). */
  readonly tools: ReadonlyArray<McpRemoteTool>;
}

const NAME = /[^a-zA-Z0-9_-]/g;

/** Valid, unique Quiver names for remote tools: invalid characters become "_", at most 64 characters. */
const quiverNames = (remote: ReadonlyArray<string>, prefix: string): string[] => {
  const used = new Set<string>();
  return remote.map((name) => {
    const base = `${prefix}${name}`.replace(NAME, "_").slice(0, 64) || "tool";
    let candidate = base;
    for (let i = 2; used.has(candidate); i++) candidate = `${base.slice(0, 64 - String(i).length - 1)}_${i}`;
    used.add(candidate);
    return candidate;
  });
};

/**
 * Wraps the tools of a remote MCP server (a stdio command or a Streamable HTTP URL) as a Quiver
 * plugin, so they get the envelope and the runtime's policies: input validated against the remote
 * JSON Schema (converted with `z.fromJSONSchema`), timeouts, retries for idempotent tools, the
 * circuit breaker, progress forwarded, cancellation passed on as `notifications/cancelled`. A remote
 * `isError` result becomes an `upstream` failure; a lost or refused connection is `unavailable`
 * (and the next call reconnects).
 *
 * It needs the remote tool list up front: use `loadMcpBridgePlugin`, which connects and lists, or
 * pass a saved `tools` list here (the connection then opens on the first call).
 *
 * @example
 * const plugin = createMcpBridgePlugin({ id: "everything", command: "npx", args: ["@modelcontextprotocol/server-everything"], tools: saved });
 * catalog.register(plugin);
 */
export const createMcpBridgePlugin = (options: McpBridgePluginOptions): Plugin<undefined> =>
  bridgePlugin(options, createBridgeConnection(options.id, options));

/** The plugin over a given connection (shared by both entry points). */
const bridgePlugin = (options: McpBridgePluginOptions, conn: BridgeConnection): Plugin<undefined> => {
  const {
    id,
    tools: remoteTools,
    toolPrefix = "",
    include,
    category = "mcp_server",
    policy,
    requestTimeoutMs = 600_000,
  } = options;
  const selected = include ? remoteTools.filter((t) => include.includes(t.name)) : remoteTools;
  const names = quiverNames(
    selected.map((t) => t.name),
    toolPrefix,
  );

  const tools: AnyTool[] = selected.map((remote, i) => {
    const name = names[i]!;
    const structured = remote.outputSchema !== undefined;
    const annotations = fromMcpAnnotations(remote.annotations);
    const title = remote.title ?? remote.annotations?.title;
    return defineTool({
      name,
      ...(title ? { title } : {}),
      description:
        remote.description?.trim() || title || `The tool "${remote.name}" of the MCP server "${id}".`,
      category,
      input: remoteInputSchema(remote.inputSchema as Record<string, unknown>),
      output: remoteOutputSchema(remote.outputSchema as Record<string, unknown> | undefined),
      annotations,
      ...(policy ? { policy } : {}),
      run: async (input, ctx) => {
        let result: Awaited<ReturnType<BridgeConnection["callTool"]>>;
        try {
          result = await conn.callTool(remote.name, input as Record<string, unknown>, {
            signal: ctx.signal,
            timeout: requestTimeoutMs,
            resetTimeoutOnProgress: true,
            onprogress: (p) =>
              ctx.progress({
                progress: p.progress,
                ...(p.total !== undefined ? { total: p.total } : {}),
                ...(p.message !== undefined ? { message: p.message } : {}),
              }),
          });
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          const failure = failureFromError(error, name, id, conn);
          // A lost connection or expired session is not coming back: reconnect on the next attempt.
          if (failure.kind === "unavailable") await conn.reset();
          throw failure;
        }
        const data = dataFromRemote(result, structured, name, id);
        // Images, audio and resources the remote sent go on as the envelope's media parts.
        const media = (result.content ?? []).flatMap((block): ContentPart[] => {
          if (block.type === "text") return [];
          const part = contentPartSchema.safeParse(block);
          return part.success ? [part.data] : [];
        });
        return (media.length > 0 ? outcome(data, { content: media }) : data) as never;
      },
    });
  });

  return definePlugin({
    specificationVersion: "v1",
    id,
    version: options.version ?? conn.serverInfo()?.version ?? pkg.version,
    description:
      options.description ??
      `Tools of the MCP server ${conn.serverInfo()?.name ? `"${conn.serverInfo()!.name}" ` : ""}at ${conn.label}, bridged into Quiver.`,
    tools,
    health: async () => {
      const started = performance.now();
      try {
        const listed = await conn.listTools();
        return {
          ok: true,
          message: `The MCP server answered tools/list with ${listed.length} tools.`,
          latencyMs: Math.round(performance.now() - started),
        };
      } catch (error) {
        const failure = unreachable(id, conn, error);
        return {
          ok: false,
          message: failure.message,
          fix: failure.suggestion ?? "Check the bridge's command or URL.",
        };
      }
    },
    dispose: () => conn.close(),
  });
};

/**
 * Connects to a remote MCP server, lists its tools and returns them as a Quiver plugin that keeps
 * the connection (closed by the plugin's `dispose`, which `catalog.close()` calls).
 *
 * Use it when a host starts: a server that cannot be reached rejects with a message naming the
 * command or URL, so the host can report the bridge as broken and serve the rest.
 *
 * @example
 * const everything = await loadMcpBridgePlugin({ id: "everything", command: "node", args: [serverPath, "stdio"] });
 * catalog.register(everything);
 * await catalog.call("echo", { message: "hi" });
 */
export const loadMcpBridgePlugin = async (options: McpBridgeOptions): Promise<Plugin<undefined>> => {
  const connection = createBridgeConnection(options.id, options);
  let tools: ReadonlyArray<McpRemoteTool>;
  try {
    tools = await connection.listTools();
  } catch (error) {
    const failure = failureFromError(error, "tools/list", options.id, connection);
    await connection.close().catch(() => {});
    throw new Error(failure.suggestion ? `${failure.message} ${failure.suggestion}` : failure.message, {
      cause: error,
    });
  }
  return bridgePlugin({ ...options, tools }, connection);
};
