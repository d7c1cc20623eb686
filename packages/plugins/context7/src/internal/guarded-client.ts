import { fail, ToolFailure } from "@quiver/core";
import type { DocsClient, DocsRequestOptions } from "./docs-client.js";

/** Any failure of a transport that is not a ToolFailure means the transport is down. */
const guard =
  <A extends unknown[], R>(what: string, f: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await f(...args);
    } catch (error) {
      const options = args[args.length - 1] as DocsRequestOptions | undefined;
      if (ToolFailure.isInstance(error) || options?.signal.aborted) throw error;
      throw fail.unavailable(
        `Context7 (${what}) failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

/** A transport whose plain errors become `unavailable` failures naming it (`what`). */
export const guardedClient = (what: string, client: DocsClient): DocsClient => ({
  searchLibraries: guard(what, (request, options) => client.searchLibraries(request, options)),
  getContext: guard(what, (request, options) => client.getContext(request, options)),
});
