import type { ServerResponse } from "node:http";
import type { Catalog } from "@quiver/core";
import { readView } from "@quiver/mcp/server";
import { sendError } from "./json-response.js";

/** A view resource's `_meta.ui.csp` (MCP Apps' `McpUiResourceCsp`): the origins the page may reach. */
interface ViewCsp {
  readonly connectDomains?: ReadonlyArray<string>;
  readonly resourceDomains?: ReadonlyArray<string>;
  readonly frameDomains?: ReadonlyArray<string>;
}

/**
 * The Content-Security-Policy of a view's page, from its resource's declared CSP: inline scripts and
 * styles (a view is one self-contained file), data and blob images, and only the origins the resource
 * names: with none (every Quiver view), no network at all; the host bridge is `postMessage`. Framed
 * by the console only (`frame-ancestors 'self'`), never navigating or submitting anywhere.
 */
export const viewCsp = (csp: ViewCsp = {}): string => {
  const list = (origins: ReadonlyArray<string> | undefined, none = "'none'") =>
    origins && origins.length > 0 ? origins.join(" ") : none;
  const resources = (csp.resourceDomains ?? []).join(" ");
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: blob: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `connect-src ${list(csp.connectDomains)}`,
    `frame-src ${list(csp.frameDomains)}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
};

/**
 * `GET /views?uri=ui://…`: the HTML page of a plugin's MCP Apps view, as `resources/read` serves it,
 * under the CSP its resource declares (see {@link viewCsp}), for the console to frame in a sandbox.
 * A view holds no data (its result comes through the bridge), so the page is served before auth, as
 * the console's own files are. A URI no view has is 404.
 *
 * @example
 * http.createServer((req, res) => void sendViewPage(res, catalog, new URL(req.url ?? "/", "http://localhost").searchParams.get("uri")))
 */
export const sendViewPage = async (res: ServerResponse, catalog: Catalog, uri: string | null) => {
  const contents = uri?.startsWith("ui://") ? await readView(catalog, uri) : undefined;
  const page = contents?.[0];
  if (!page)
    return sendError(res, 404, "unknown_view", `No plugin serves the view ${JSON.stringify(uri ?? "")}.`, {
      fix: "Give a ui:// URI a tool names in its _meta.ui.resourceUri (GET /tools/:name answers its viewUri).",
    });
  const body = Buffer.from(page.text);
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-length": body.length,
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "content-security-policy": viewCsp((page._meta.ui as { csp?: ViewCsp }).csp),
  });
  res.end(body);
};
