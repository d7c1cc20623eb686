import type { AuthInfo, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

/** The ids of the JSON-RPC requests (not notifications or responses) in a POST body. */
const requestIds = (body: unknown): Array<string | number> => {
  const messages = Array.isArray(body) ? body : [body];
  const ids: Array<string | number> = [];
  for (const m of messages) {
    if (typeof m !== "object" || m === null) continue;
    const { id, method } = m as { id?: unknown; method?: unknown };
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) ids.push(id);
  }
  return ids;
};

/**
 * Cancels the requests of a session POST when its response stream closes before the answer (the
 * client went away without `notifications/cancelled`): the session's transport receives that
 * notification on the client's behalf, so each call's signal aborts and its upstream request with
 * it, as when the client cancels. A request whose answer was sent is not affected.
 */
export const cancelOnDisconnect = (
  request: Request,
  transport: WebStandardStreamableHTTPServerTransport,
  parsedBody: unknown,
  authInfo: AuthInfo | undefined,
  onError: (error: unknown) => void,
): void => {
  if (request.method !== "POST") return;
  const ids = requestIds(parsedBody);
  if (ids.length === 0) return;
  const headers = new Headers({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  });
  for (const name of ["mcp-session-id", "mcp-protocol-version", "host"]) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  request.signal.addEventListener(
    "abort",
    () => {
      const cancelled = ids.map((requestId) => ({
        jsonrpc: "2.0" as const,
        method: "notifications/cancelled" as const,
        params: { requestId, reason: "The client disconnected." },
      }));
      transport
        .handleRequest(new Request(request.url, { method: "POST", headers }), {
          parsedBody: cancelled.length === 1 ? cancelled[0] : cancelled,
          ...(authInfo ? { authInfo } : {}),
        })
        .then((res) => res.body?.cancel())
        .catch(onError);
    },
    { once: true },
  );
};
