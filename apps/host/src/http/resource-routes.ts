import { type Catalog, matchTemplate, type SessionContext, type SlotFailureKind } from "@quiver/core";
import type { ApiCaller } from "../auth/api-caller.js";
import type { ApiRoute } from "./api-routes.js";
import type { ResourceList, ResourceRead } from "./console-resource-types.js";
import { sendError, sendJson } from "./json-response.js";

/** The HTTP status of each way a read can fail (anything not listed is the server's: 500). */
const STATUS: Partial<Record<SlotFailureKind, number>> = {
  not_found: 404,
  invalid_input: 400,
  access_denied: 403,
  rate_limited: 429,
  unavailable: 503,
  upstream: 502,
  timeout: 504,
};

/** The caller as a read's session: the same principal, groups, client and scopes as its tool calls. */
const sessionOf = ({ principal, groups, clientId, scopes }: ApiCaller): SessionContext => ({
  ...(principal !== undefined ? { principal } : {}),
  ...(groups.length > 0 ? { groups } : {}),
  ...(clientId !== undefined ? { clientId } : {}),
  ...(scopes !== undefined ? { scopes } : {}),
});

/** The resource a URI names, as the catalog resolves it: a fixed resource by its URI, else the first template it matches. */
const resourceAt = (catalog: Catalog, uri: string) =>
  catalog.resources().find((r) => r.uri === uri) ??
  catalog.resourceTemplates().find((t) => matchTemplate(t.uriTemplate, uri) !== undefined);

/**
 * `GET /resources`: the catalog's resources and resource templates the caller's scopes allow, each with
 * its plugin (and a template's completable variables). `GET /resources?uri=…`: reads one, under the
 * caller's identity as a tool call runs, and answers `{ uri, contents }` as MCP's `resources/read` does
 * (text as `text`, binary as a base64 `blob`). A URI nothing serves (or the caller may not read) is 404, a
 * malformed one 400, missing scopes 403 `insufficient_scope` (with its `WWW-Authenticate` challenge); the body is the API's error shape with the plugin's redacted message.
 */
export const resourcesRoute: ApiRoute["handle"] = async ({ res, url, caller }, { catalog, options }) => {
  const uri = url.searchParams.get("uri");
  const allowed = (r: { name: string; plugin: string }) => caller.missingScopes(r).length === 0;
  if (uri === null) {
    const list: ResourceList = {
      resources: catalog.resources().filter(allowed),
      resourceTemplates: catalog.resourceTemplates().filter(allowed),
    };
    return sendJson(res, 200, list);
  }
  if (!URL.canParse(uri))
    return sendError(res, 400, "invalid_uri", `Not a URI: ${JSON.stringify(uri.slice(0, 200))}.`, {
      fix: "Give an absolute URI such as test://static-text; GET /resources lists them.",
    });
  // Only OAuth callers can lack scopes; refused as a tool call is (403 insufficient_scope, its challenge).
  const found = options.auth && resourceAt(catalog, uri);
  const missing = found ? caller.missingScopes(found) : [];
  if (options.auth && missing.length > 0) {
    const refusal = options.auth.insufficientScope(missing);
    const scopes = missing.join(" ");
    const message = `Reading ${uri} needs the scope${missing.length === 1 ? "" : "s"} ${scopes}, which your access token does not carry.`;
    return sendError(res, refusal.status, refusal.code, message, refusal);
  }
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) controller.abort(new Error("The client disconnected."));
  };
  res.once("close", onClose);
  const read = await catalog.readResource(uri, { session: sessionOf(caller), signal: controller.signal });
  res.off("close", onClose);
  if (res.destroyed) return;
  if (read.ok) return sendJson(res, 200, { uri, contents: read.value } satisfies ResourceRead);
  const status = STATUS[read.kind] ?? 500;
  return sendError(res, status, read.kind, read.message, {
    ...(read.kind === "not_found" ? { fix: "GET /resources lists what this host serves." } : {}),
    ...(read.retryAfterMs !== undefined
      ? { headers: { "retry-after": String(Math.ceil(read.retryAfterMs / 1000)) } }
      : {}),
  });
};
