import {
  EXTENSION_ID,
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from "@modelcontextprotocol/ext-apps/server";
import type { ClientCapabilities } from "@modelcontextprotocol/server";
import { type Catalog, type PluginView, type ToolInfo, viewOnly } from "@quiver/core";

/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`) as the server declares it: under
 * `capabilities.extensions`, which both the 2025-11-25 and the 2026-07-28 revisions carry.
 */
export const UI_EXTENSION = { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } };

/**
 * A view's `_meta.ui` (as served by `resources/list` and `resources/read`): a content security policy with no origin at all (no `connect-src`, no
 * resource or frame origins), so the page reaches nothing but the host bridge; its data and the
 * tools it calls go through `postMessage`.
 */
export const VIEW_UI_META = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [] },
  prefersBorder: true,
};

/** The `_meta` key of a request's client capabilities in the 2026-07-28 per-request envelope. */
const CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";

/**
 * Whether the client renders MCP Apps: its capabilities (the request's envelope on the 2026-07-28
 * era, the initialize handshake's before) name the extension with its HTML MIME type.
 */
export const clientShowsViews = (
  server: { getClientCapabilities(): ClientCapabilities | undefined },
  envelope: Readonly<Record<string, unknown>> | undefined,
): boolean => {
  const caps =
    (envelope?.[CLIENT_CAPABILITIES_META] as ClientCapabilities | undefined) ??
    server.getClientCapabilities();
  return getUiCapability(caps)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) ?? false;
};

/** Every registered plugin's views, with the plugin that declares each. */
const viewsOf = (catalog: Catalog): ReadonlyArray<{ readonly plugin: string; readonly view: PluginView }> =>
  catalog.plugins().flatMap((p) => (p.slots?.views ?? []).map((view) => ({ plugin: p.id, view })));

/** The views as `resources/list` entries: the `ui://` URI, the MCP Apps MIME type and the CSP. */
export const viewResources = (catalog: Catalog) =>
  viewsOf(catalog).map(({ view }) => ({
    uri: view.uri,
    name: view.name,
    ...(view.title ? { title: view.title } : {}),
    ...(view.description ? { description: view.description } : {}),
    mimeType: RESOURCE_MIME_TYPE,
    _meta: { ui: VIEW_UI_META },
  }));

// A view's page is read once per view (the file a plugin ships does not change while it runs).
const pages = new WeakMap<PluginView, Promise<string>>();

/**
 * The `resources/read` contents of the view at `uri` (its HTML page, with the CSP in `_meta.ui`),
 * or undefined when no view has that URI. A page that fails to load rejects, and is tried again next time.
 */
export const readView = async (catalog: Catalog, uri: string) => {
  const found = viewsOf(catalog).find(({ view }) => view.uri === uri);
  if (!found) return undefined;
  let page = pages.get(found.view);
  if (!page) {
    page = Promise.resolve(found.view.html());
    pages.set(found.view, page);
    page.catch(() => pages.delete(found.view));
  }
  return [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await page, _meta: { ui: VIEW_UI_META } }];
};

/** The URI of the view that shows `tool`'s result, when it names one its plugin declares. */
export const viewUriOf = (catalog: Catalog, tool: ToolInfo): string | undefined => {
  if (tool.view === undefined) return undefined;
  const plugin = catalog.plugins().find((p) => p.id === tool.plugin);
  return plugin?.slots?.views?.find((v) => v.name === tool.view)?.uri;
};

/**
 * A tools/list entry as a client that renders views sees it: `_meta.ui.resourceUri` (and the older
 * flat `ui/resourceUri` key that hosts of the first MCP Apps release read; `registerAppTool` of the
 * extension sets both) when it has a view, `_meta.ui.visibility` when the tool gives one (a
 * view-only tool's `["app"]`, which the host keeps from its model); the entry unchanged otherwise.
 */
export const withViewMeta = <T extends object>(tool: T, uri: string | undefined, info?: ToolInfo): T => {
  const visibility = info?.visibility;
  if (uri === undefined && visibility === undefined) return tool;
  return {
    ...tool,
    _meta: {
      ...(tool as { readonly _meta?: Record<string, unknown> })._meta,
      ui: { ...(uri !== undefined ? { resourceUri: uri } : {}), ...(visibility ? { visibility } : {}) },
      ...(uri !== undefined ? { [RESOURCE_URI_META_KEY]: uri } : {}),
    },
  };
};

/** Whether a client without apps may be shown the tool: not when it is view-only (it has no view to call it). */
export const shownWithoutViews = (info: ToolInfo | undefined): boolean => !info || !viewOnly(info);
