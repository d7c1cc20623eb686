import { defineToolWith, fail, type SetupContext, ToolFailure } from "@quiver/core";
import type { Context7Config } from "./config.js";
import type { DocsClient, DocsRequestOptions } from "./internal/docs-client.js";
import { httpDocsClient } from "./internal/http-docs-client.js";
import { type LibraryCache, libraryCache } from "./internal/library-cache.js";
import { type ResolvedIds, resolvedIds } from "./internal/resolved-ids.js";

/** What the Context7 tools share for one registration (`ctx.resources`). */
export interface Context7Resources {
  /** The transport: an injected `docsClient`, or the HTTP API. */
  readonly docs: DocsClient;
  /** Which transport `docs` is, for messages ("HTTP API", "injected transport"). */
  readonly transport: string;
  /** Resolved library ids by normalised name, kept for `libraryCacheTtl`. */
  readonly libraries: LibraryCache;
  /** The library ids each caller has resolved, newest first (the `library_id` completions). */
  readonly resolved: ResolvedIds;
}

/** Defines a Context7 tool: its `ctx.config` and `ctx.resources` are the plugin's. */
export const tool = defineToolWith<Context7Config, Context7Resources>();

/**
 * Opens the transport the settings name: an injected `docsClient`, else the HTTP API through the
 * catalog's client.
 */
export const setupContext7 = ({ config, http, clock }: SetupContext<Context7Config>): Context7Resources => {
  const libraries = libraryCache(config.libraryCacheTtl, clock);
  const resolved = resolvedIds();
  const injected = config.docsClient;
  if (!injected) return { docs: httpDocsClient(http, config), transport: "HTTP API", libraries, resolved };
  // Its plain errors (not a ToolFailure, not a cancellation) are Context7 being unavailable, named after it.
  const guard = async <T>({ signal }: DocsRequestOptions, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (ToolFailure.isInstance(error) || signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw fail.unavailable(`Context7 (injected transport) failed: ${message}`);
    }
  };
  const docs: DocsClient = {
    searchLibraries: (request, options) => guard(options, () => injected.searchLibraries(request, options)),
    getContext: (request, options) => guard(options, () => injected.getContext(request, options)),
  };
  return { docs, transport: "injected transport", libraries, resolved };
};
