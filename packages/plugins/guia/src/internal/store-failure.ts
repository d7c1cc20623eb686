import { fail, ToolFailure } from "@quiver/core";
import type { GuideStore } from "./stores/guide-store.js";

/**
 * Rethrows a store failure other than ours (a broken folder, a dropped connection) as `unavailable`; a
 * tool failure (an id that is not a slug) passes as it is. For `.catch()` on a store's promise.
 */
export const storeFailed =
  (store: GuideStore) =>
  (error: Error): never => {
    if (ToolFailure.isInstance(error)) throw error;
    throw fail.unavailable(`The ${store.kind} guide store failed: ${error.message}`);
  };
