import { randomUUID } from "node:crypto";
import { type AuthInfo, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import type { Catalog, ClientRequests, ToolInfo, ToolLogEntry, ToolProgress, ToolResult } from "@quiver/core";
import type { TaskRunner } from "@quiver/tasks";
import pkg from "../package.json" with { type: "json" };
import { aliasEnvelope, argumentsForTool } from "./alias-sets.js";
import { type ExtraMcpTool, usesAllowed } from "./extra-tools.js";
import { NOTIFYING_RESOURCES, notifyChanges } from "./internal/change-notifications.js";
import { identityExtras, principalOf } from "./internal/principal.js";
import { serverInstructions } from "./internal/server-instructions.js";
import { serveSlots } from "./internal/slot-handlers.js";
import { withTaskSupport } from "./internal/tasks-call.js";
import { serveTasks } from "./internal/tasks-serve.js";
import { TASK_SERVER_CAPABILITIES } from "./internal/tasks-wire.js";
import { toolCallTrace } from "./internal/tool-call-trace.js";
import { aliasedListing, stderrReporter, toolListing } from "./internal/tool-listing.js";
import {
  clientShowsViews,
  shownWithoutViews,
  UI_EXTENSION,
  viewUriOf,
  withViewMeta,
} from "./internal/views.js";
import { type TextContentMode, toCallToolResult } from "./to-call-tool-result.js";

/** Options of an MCP server built over a catalog. */
export interface CatalogMcpServerOptions {
  /** The server name reported at initialisation (default "quiver"). */
  readonly name?: string;
  /** The server version reported at initialisation (default this package's version). */
  readonly version?: string;
  /**
   * The host's instructions for the client, sent at initialisation (and in `server/discover`) before
   * each plugin's paragraph (its `instructions` slot).
   */
  readonly instructions?: string | undefined;
  /**
   * The principal of every call on this server when the transport carries no authentication (stdio:
   * the person the host runs for). A principal from auth info wins.
   */
  readonly principal?: string;
  /** Maps a request's verified auth info to a principal (default: `extra.principal`, then `clientId`). */
  readonly principalFrom?: (authInfo: AuthInfo) => string | undefined;
  /** Session values for context-injected tool parameters (`inject: { field: "key" }`). */
  readonly sessionValues?: Readonly<Record<string, unknown>>;
  /**
   * The conversation calls count their failures in when the transport names no session (default: one
   * per server instance). A stateless endpoint, whose server lives for one request, passes a fixed one.
   */
  readonly sessionId?: string;
  /** Which tools this server shows and runs (default: every tool of the catalog). */
  readonly filter?: (tool: ToolInfo, principal: string | undefined) => boolean;
  /**
   * The OAuth scopes a caller lacks for a tool (empty: it may call it), from the request's verified
   * auth info. A tool with a missing scope is left out of tools/list, and calling it answers an
   * `access_denied` envelope naming the scopes to ask for.
   */
  readonly missingScopes?: (tool: ToolInfo, authInfo: AuthInfo | undefined) => ReadonlyArray<string>;
  /** What the text content carries besides `structuredContent` (default "summary-and-data"). */
  readonly textContent?: TextContentMode;
  /**
   * Send `notifications/tools/list_changed` when the catalog changes, and serve resource
   * subscriptions with `resources/updated` and `resources/list_changed` (default true). A host that
   * publishes changes itself (a per-request server) turns it off.
   */
  readonly notifyListChanged?: boolean;
  /**
   * Advertise resource subscriptions and list changes (default: as `notifyListChanged`); a host that
   * publishes them itself on the 2026-07-28 `subscriptions/listen` bus turns it on there.
   */
  readonly advertiseResourceChanges?: boolean;
  /**
   * Called for a tool whose JSON Schema cannot be exported; the tool is left out of tools/list
   * (default: one line on stderr).
   */
  readonly onSchemaError?: (tool: string, error: Error) => void;
  /**
   * Tools served beside the catalog's with their own result shapes (a host profile's seed tools); one
   * hides a catalog tool of the same name.
   */
  readonly extraTools?: ReadonlyArray<ExtraMcpTool>;
  /**
   * Alias sets to serve (plugins declare them in their `aliasSets` slot, e.g. context7's
   * "context7-mcp"): tools/list shows each aliased tool under its alias, with the alias's parameter
   * names in its input schema, and tools/call by the alias renames the arguments back and answers in
   * the alias's names. The tool's own name stays callable. See {@link availableAliasSets}.
   */
  readonly aliasSets?: ReadonlyArray<string>;
  /**
   * Serve MCP 2025-11-25 tasks with this runner (`createTaskRunner` of @quiver/tasks):
   * `capabilities.tasks`, `execution.taskSupport: "optional"` on each tool whose `task` slot says
   * so, task-augmented `tools/call` and `tasks/get|result|list|cancel`, owned by the principal.
   */
  readonly tasks?: TaskRunner;
}

/** The envelope of a call refused because the caller's token lacks scopes the tool requires. */
const insufficientScope = (tool: ToolInfo, missing: ReadonlyArray<string>): ToolResult => {
  const message = `${tool.name} needs the scope${missing.length === 1 ? "" : "s"} ${missing.join(" ")}, which your access token does not carry.`;
  return {
    status: "access_denied",
    message,
    error: { kind: "access_denied", message, retryable: false },
    suggestion: `Ask the authorization server for a token with scope "${missing.join(" ")}" and reconnect.`,
    metadata: {
      tool: tool.name,
      plugin: tool.plugin,
      callId: randomUUID(),
      durationMs: 0,
      attempts: 0,
      cached: false,
      truncated: false,
    },
  };
};

/**
 * What the connected client offers a tool (`ctx.client`): sampling and elicitation when it declared
 * them. Each request goes out on the call's own response stream (`relatedRequestId`), not the
 * session's standalone stream, which a client may not have opened yet.
 */
const clientRequests = (
  server: Server,
  req: {
    readonly id: string | number;
    readonly requestSampling: (
      params: never,
      options: { relatedRequestId: string | number; signal?: AbortSignal },
    ) => Promise<unknown>;
    readonly elicitInput: (
      params: never,
      options: { relatedRequestId: string | number; signal?: AbortSignal },
    ) => Promise<unknown>;
    readonly signal: AbortSignal;
  },
): ClientRequests => {
  const caps = server.getClientCapabilities();
  const options = { relatedRequestId: req.id, signal: req.signal };
  return {
    ...(caps?.sampling
      ? { sample: async (p) => (await req.requestSampling(p as never, options)) as Record<string, unknown> }
      : {}),
    ...(caps?.elicitation
      ? { elicit: async (p) => (await req.elicitInput(p as never, options)) as Record<string, unknown> }
      : {}),
  };
};

/**
 * Creates an MCP server (the SDK's low-level `Server`) for one connection over a catalog: tools/list
 * serves each tool's exported JSON Schema verbatim with an envelope output schema and annotations;
 * tools/call runs `catalog.call` and answers the envelope as `structuredContent` plus a text summary,
 * with `isError` for every status but success and partial. Progress goes to clients that sent a progressToken,
 * `notifications/cancelled` aborts the call, and `tools/list_changed` follows `catalog.onChange`.
 *
 * Use it with any SDK transport; `serveStdio` and `createMcpHttpHandler` build one per connection
 * for you. The server unsubscribes from the catalog when it closes.
 *
 * @example
 * const server = createMcpServer(catalog, { principal: "alice" });
 * await server.connect(new StdioServerTransport());
 */
export const createMcpServer = (catalog: Catalog, options: CatalogMcpServerOptions = {}): Server =>
  createServerOver(Promise.resolve({ catalog, extraTools: options.extraTools ?? [] }), {
    ...options,
    instructions: serverInstructions(options.instructions, catalog, options.aliasSets),
  });

/** What a server serves once its host is ready: the catalog and the tools beside it. */
export interface ServedTools {
  readonly catalog: Catalog;
  readonly extraTools: ReadonlyArray<ExtraMcpTool>;
}

/**
 * The server over tools that may still be loading (`serveStdio` given a promise): tools/list and
 * tools/call wait for `ready`, and a `ready` that rejects answers them with its error; the caller
 * closes the server. `options.instructions` are sent as they are (compose the plugins' paragraphs
 * with the catalog first, as `createMcpServer` and `serveStdio` do).
 */
export const createServerOver = (
  ready: Promise<ServedTools>,
  options: Omit<CatalogMcpServerOptions, "extraTools"> = {},
): Server => {
  const served = ready.then(({ catalog, extraTools }) => ({
    catalog,
    extras: new Map(extraTools.map((t) => [t.name, t])),
  }));
  // Its requests see a rejection; unhandled here it would end the process before the caller reports it.
  served.catch(() => {});
  const notifies = options.notifyListChanged !== false;
  const server = new Server(
    { name: options.name ?? "quiver", version: options.version ?? pkg.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: (options.advertiseResourceChanges ?? notifies) ? NOTIFYING_RESOURCES : {},
        prompts: {},
        completions: {},
        logging: {},
        ...(options.tasks ? TASK_SERVER_CAPABILITIES : {}),
        extensions: { ...(options.tasks ? TASK_SERVER_CAPABILITIES.extensions : {}), ...UI_EXTENSION },
      },
      ...(options.instructions ? { instructions: options.instructions } : {}),
      debouncedNotificationMethods: ["notifications/tools/list_changed"],
    },
  );
  // One conversation per connection unless the transport names its own session.
  const connectionId = options.sessionId ?? randomUUID();
  const visible = (tool: ToolInfo, principal: string | undefined, authInfo: AuthInfo | undefined) =>
    (!options.filter || options.filter(tool, principal)) &&
    (options.missingScopes?.(tool, authInfo).length ?? 0) === 0;

  const report = options.onSchemaError ?? stderrReporter;
  /** Who a request comes from and in which conversation, as the catalog reads it. */
  const sessionOf = (ctx: {
    readonly http?: { readonly authInfo?: AuthInfo } | undefined;
    readonly sessionId?: string;
  }) => {
    const principal = principalOf(options, ctx.http?.authInfo);
    return {
      id: ctx.sessionId ?? connectionId,
      ...(principal !== undefined ? { principal } : {}),
      ...identityExtras(ctx.http?.authInfo),
      ...(options.sessionValues ? { values: options.sessionValues } : {}),
    };
  };
  serveSlots(server, async () => (await served).catalog, sessionOf);
  if (options.tasks) serveTasks(server, { runner: options.tasks, served, options, report, sessionOf });

  server.setRequestHandler("tools/list", async (_request, ctx) => {
    const { catalog, extras } = await served;
    const principal = principalOf(options, ctx.http?.authInfo);
    const listing = toolListing(catalog, report);
    const shown = aliasedListing(catalog, listing, options.aliasSets ?? []).tools;
    const allowed = (name: string) => {
      const listed = listing.get(name);
      return listed && visible(listed.info, principal, ctx.http?.authInfo);
    };
    const tools = [
      ...[...extras.values()]
        .filter((t) => usesAllowed(t.uses, allowed))
        .map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema as { type: "object"; [k: string]: unknown },
        })),
      ...[...shown.values()]
        .filter((t) => !extras.has(t.info.name) && visible(t.info, principal, ctx.http?.authInfo))
        .map((t) => withTaskSupport(t, options.tasks !== undefined)),
    ];
    const infoOf = (name: string) => listing.get(name)?.info ?? shown.get(name)?.info;
    // A client that renders MCP Apps learns each tool's view and visibility (its host keeps a
    // view-only tool from its model); any other sees the tools unchanged, less the view-only ones.
    if (!clientShowsViews(server, ctx.mcpReq.envelope))
      return { tools: tools.filter((t) => shownWithoutViews(infoOf(t.name))) };
    return {
      tools: tools.map((t) => {
        const info = infoOf(t.name);
        return info ? withViewMeta(t, viewUriOf(catalog, info), info) : t;
      }),
    };
  });

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { catalog, extras } = await served;
    const { name: asked, arguments: sent } = request.params;
    const principal = principalOf(options, ctx.http?.authInfo);
    const extra = extras.get(asked);
    if (extra) {
      return extra.call((sent ?? {}) as Record<string, unknown>, {
        sessionId: ctx.sessionId ?? connectionId,
        principal,
        signal: ctx.mcpReq.signal,
        meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
        headers: ctx.http?.req?.headers,
      });
    }
    const listing = toolListing(catalog, report);
    const { aliases } = aliasedListing(catalog, listing, options.aliasSets ?? []);
    // A call by an alias runs its tool with the arguments under the tool's parameter names.
    const alias = aliases.byAlias.get(asked);
    const name = alias?.tool ?? asked;
    const args = alias ? argumentsForTool(alias, sent) : sent;
    const listed = listing.get(name);
    if (!listed || (options.filter && !options.filter(listed.info, principal))) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${asked}. Call tools/list for the tools this server offers.`,
      );
    }
    const missing = options.missingScopes?.(listed.info, ctx.http?.authInfo) ?? [];
    if (missing.length > 0) {
      return toCallToolResult(insufficientScope(listed.info, missing), options.textContent);
    }
    const token = ctx.mcpReq._meta?.progressToken;
    // A per-call time limit in `_meta.timeoutMs` (bounded by the tool's own timeout in the catalog).
    const timeoutMs = (ctx.mcpReq._meta as Record<string, unknown> | undefined)?.timeoutMs;
    let last = Number.NEGATIVE_INFINITY;
    const onProgress =
      token === undefined
        ? undefined
        : (p: ToolProgress) => {
            // The protocol requires progress to increase; a tool that repeats a value is not forwarded.
            if (!(p.progress > last)) return;
            last = p.progress;
            ctx.mcpReq
              .notify({
                method: "notifications/progress",
                params: {
                  progressToken: token,
                  progress: p.progress,
                  ...(p.total !== undefined ? { total: p.total } : {}),
                  ...(p.message !== undefined ? { message: p.message } : {}),
                },
              })
              .catch(() => {});
          };
    // A tool's `ctx.log` lines go to the client at the level it set (`logging/setLevel`).
    const onLog = (entry: ToolLogEntry) => {
      ctx.mcpReq
        .log(
          entry.level,
          entry.data === undefined ? entry.message : { message: entry.message, data: entry.data },
          name,
        )
        .catch(() => {});
    };
    const envelope = await catalog.call(name, args ?? {}, {
      onLog,
      client: clientRequests(server, ctx.mcpReq),
      session: sessionOf(ctx),
      signal: ctx.mcpReq.signal,
      ...(onProgress ? { onProgress } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs: timeoutMs as number } : {}),
      ...toolCallTrace(name, ctx),
    });
    return server.projectCallToolResult(
      toCallToolResult(alias ? aliasEnvelope(envelope, alias, aliases) : envelope, options.textContent),
      listed.definition.outputSchema,
    );
  });

  if (notifies) notifyChanges(server, served, sessionOf);
  return server;
};
