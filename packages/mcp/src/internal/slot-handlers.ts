import {
  type AuthInfo,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
} from "@modelcontextprotocol/server";
import type { Catalog, SessionContext, SlotAnswer } from "@quiver/core";
import { readView, viewResources } from "./views.js";

/** Most completion values one answer holds (MCP's limit). */
const MAX_VALUES = 100;

/** A slot's failure as the MCP error a client shows: not found, bad arguments, or the server's. */
const unwrap = <T>(answer: SlotAnswer<T>, uri?: string): T => {
  if (answer.ok) return answer.value;
  if (answer.kind === "not_found" && uri !== undefined) throw new ResourceNotFoundError(uri, answer.message);
  const code =
    answer.kind === "invalid_input" || answer.kind === "not_found"
      ? ProtocolErrorCode.InvalidParams
      : ProtocolErrorCode.InternalError;
  throw new ProtocolError(code, answer.message, { kind: answer.kind });
};

/** Drops the keys whose value is undefined (MCP results carry no `undefined`). */
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * Serves the catalog's resources, resource templates, prompts and completions on `server`
 * (`resources/list`, `resources/templates/list`, `resources/read`, `prompts/list`, `prompts/get`,
 * `completion/complete`), and the plugins' MCP Apps views as `ui://` resources, each request under the caller's session as its tool calls are (`session`).
 * A read, prompt or completion that fails answers an MCP error: the SDK's resource-not-found for a
 * URI nothing serves (-32602 on the wire), invalid params for a prompt that does not exist or lacks
 * an argument, internal error (with the redacted message) otherwise.
 */
export const serveSlots = (
  server: Server,
  catalogOf: () => Promise<Catalog>,
  session: (ctx: {
    readonly http?: { readonly authInfo?: AuthInfo } | undefined;
    readonly sessionId?: string;
  }) => SessionContext,
): void => {
  server.setRequestHandler("resources/list", async () => {
    const catalog = await catalogOf();
    // The plugins' MCP Apps views (`ui://`) after their resources.
    return { resources: [...catalog.resources().map(({ plugin: _, ...r }) => r), ...viewResources(catalog)] };
  });
  server.setRequestHandler("resources/templates/list", async () => ({
    resourceTemplates: (await catalogOf()).resourceTemplates().map(({ plugin: _, completes: __, ...t }) => t),
  }));
  server.setRequestHandler("resources/read", async (request, ctx) => {
    const catalog = await catalogOf();
    const view = await readView(catalog, request.params.uri);
    if (view) return { contents: view };
    const read = await catalog.readResource(request.params.uri, {
      session: session(ctx),
      signal: ctx.mcpReq.signal,
    });
    return { contents: [...unwrap(read, request.params.uri)] };
  });
  server.setRequestHandler("prompts/list", async () => ({
    prompts: (await catalogOf()).prompts().map(({ plugin: _, arguments: args, ...p }) =>
      defined({
        ...p,
        arguments: args.map(({ completes: __, ...a }) => a),
      }),
    ),
  }));
  server.setRequestHandler("prompts/get", async (request, ctx) => {
    const catalog = await catalogOf();
    const got = await catalog.getPrompt(request.params.name, request.params.arguments ?? {}, {
      session: session(ctx),
      signal: ctx.mcpReq.signal,
    });
    const { description, messages } = unwrap(got);
    return { ...(description ? { description } : {}), messages: messages.map((m) => ({ ...m })) };
  });
  server.setRequestHandler("completion/complete", async (request, ctx) => {
    const catalog = await catalogOf();
    const { ref, argument, context } = request.params;
    // The arguments the client has already filled in, which a completer may narrow by.
    const given = context?.arguments ? { arguments: context.arguments } : {};
    const target =
      ref.type === "ref/prompt"
        ? { prompt: ref.name, argument: argument.name, ...given }
        : { uriTemplate: ref.uri, argument: argument.name, ...given };
    const values = unwrap(
      await catalog.complete(target, argument.value, { session: session(ctx), signal: ctx.mcpReq.signal }),
    );
    return {
      completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: false },
    };
  });
};
