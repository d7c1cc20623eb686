import { fail, ToolFailure } from "@quiver/core";
import { type Guide, type GuideListing, isSubjectId } from "../guide.js";

/**
 * Where guides live. The folder store (embedded default) and the MongoDB store implement it; pass
 * your own to `createGuiaPlugin({ guideStore })` to serve guides from anywhere else.
 *
 * Every implementation must reject an id that is not a plain subject slug before it queries
 * (use {@link assertSubjectId}).
 *
 * @example
 * const store: GuideStore = createFolderGuideStore({ dir: "./guias" })
 * const guide = await store.get("metaheuristicas")
 */
export interface GuideStore {
  /** `folder`, `mongodb` or your own name (shown in messages and health). */
  readonly kind: string;
  /** Every guide's id, name and code. */
  list(): Promise<ReadonlyArray<GuideListing>>;
  /** One guide by id; undefined when there is none. Rejects ids that are not subject slugs. */
  get(subject: string): Promise<Guide | undefined>;
  /** Stores a guide (replacing one with the same id). */
  put(guide: Guide): Promise<"created" | "replaced">;
  /** Releases files or connections. */
  close(): Promise<void>;
}

/**
 * Throws an `invalid_input` failure unless `subject` is a subject slug (`metaheuristicas`):
 * objects such as `{"$ne": null}`, dots and `$` never reach a query.
 *
 * @example
 * assertSubjectId(input) // then query with { subject: { $eq: input } }
 */
export function assertSubjectId(subject: unknown): asserts subject is string {
  if (isSubjectId(subject)) return;
  const got = typeof subject === "string" ? JSON.stringify(subject.slice(0, 60)) : typeof subject;
  throw fail.invalidInput(
    `A subject id must be a short lower-case slug such as "metaheuristicas" (got ${got}).`,
  );
}

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

/** What the guia plugin's tool, command and health check share: the guide store. */
export type GuiaResources = { readonly store: GuideStore };
