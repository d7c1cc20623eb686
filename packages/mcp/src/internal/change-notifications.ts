import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Catalog, SessionContext } from "@quiver/core";

/** What a server that notifies advertises of its resources: subscriptions and list changes. */
export const NOTIFYING_RESOURCES = { subscribe: true, listChanged: true } as const;

/**
 * A connection's change notifications (one server per connection: stdio, a 2025-era HTTP session):
 * `tools/list_changed` when the catalog's tools change; `resources/list_changed` when a plugin's list
 * of resources changes; `resources/updated` for a resource this connection subscribed to
 * (`resources/subscribe`, only to a resource it may read; `resources/unsubscribe`) when its contents
 * change. The catalog's watchers
 * run while a connection listens; closing the server stops listening.
 */
export const notifyChanges = (
  server: Server,
  served: Promise<{ readonly catalog: Catalog }>,
  sessionOf: (ctx: ServerContext) => SessionContext,
): void => {
  const subscribed = new Set<string>();
  // Only to what the caller may read: another principal's resource is not found, as its read is, so a
  // subscription never tells anyone when a resource they cannot read changes.
  server.setRequestHandler("resources/subscribe", async (request, ctx) => {
    const { uri } = request.params;
    const read = await (await served).catalog.readResource(uri, {
      session: sessionOf(ctx),
      signal: ctx.mcpReq.signal,
    });
    if (!read.ok && read.kind === "not_found") throw new ResourceNotFoundError(uri, read.message);
    if (!read.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, read.message, { kind: read.kind });
    subscribed.add(uri);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  // Not connected or not initialised yet: the client lists what it needs when it connects.
  const ignore = () => {};
  let closed = false;
  const stops: Array<() => void> = [];
  served.then(({ catalog }) => {
    if (closed) return;
    stops.push(
      catalog.onChange(() => server.sendToolListChanged().catch(ignore)),
      catalog.onResourceChange(({ uri }) => {
        if (uri === undefined) server.sendResourceListChanged().catch(ignore);
        else if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(ignore);
      }),
    );
  }, ignore);
  const previous = server.onclose;
  server.onclose = () => {
    closed = true;
    for (const stop of stops.splice(0)) stop();
    previous?.();
  };
};
