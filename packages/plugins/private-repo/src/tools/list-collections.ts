import { defineToolWith, outcome } from "@quiver/core";
import { z } from "zod";
import type { PrivateRepoConfig, RepoResources } from "../config.js";
import { readingIndexes, requireCaller } from "../internal/access.js";
import type { Readable } from "../internal/repository.js";

const output = z.object({
  collections: z.array(
    z.object({
      collection: z.string().describe("How to name it in private_repo_search filters.collections."),
      owner: z.string(),
      access: z.enum(["owner", "shared"]).describe("Yours, or shared with you."),
      documents: z.int(),
      shared_with: z
        .optional(z.array(z.string()))
        .describe("Who you share it with (your own collections only)."),
    }),
  ),
  total_documents: z.int(),
});

/**
 * `private_repo_list_collections`: the caller's collections and those shared with them, with document counts.
 *
 * Use it to see what `private_repo_search` can search, and how to name a shared collection.
 *
 * @example
 * await catalog.call("private_repo_list_collections", {}, { session: { principal: "alice" } })
 */
export const privateRepoListCollections = defineToolWith<PrivateRepoConfig, RepoResources>()({
  name: "private_repo_list_collections",
  title: "List my repository collections",
  description:
    "List the collections of the scientist's private repository that they can search (their own and those shared with them), with document counts. Use this to see what private_repo_search covers or to name a collection in its filters.",
  category: "private_repository",
  input: z.strictObject({
    scope: z
      .enum(["all", "own", "shared"])
      .default("all")
      .describe(
        "Which collections to list: all you can read (the default), only your own, or only those shared with you.",
      ),
  }),
  output,
  examples: [{ input: {} }, { input: { scope: "own" } }],
  annotations: { readOnly: true, idempotent: true, openWorld: false },
  policy: { timeout: "10s", retry: false, cache: false },
  run: async ({ scope }, ctx) => {
    const { repo, caller } = await requireCaller(ctx, "list");
    const readable = (await repo.readable(caller.principal, caller.groups)).filter(
      (c) => scope === "all" || (scope === "own") === (c.access === "owner"),
    );
    const row = async (c: Readable) => ({
      collection: c.ref,
      owner: c.owner,
      access: c.access,
      documents: await (await repo.index(c, c.via)).count(),
      ...(c.access === "owner" ? { shared_with: await repo.grantees(c.id) } : {}),
    });
    const rows = await readingIndexes(() => Promise.all(readable.map(row)));
    const total = rows.reduce((n, r) => n + r.documents, 0);
    const message =
      rows.length === 0
        ? "You have no collections yet and none are shared with you."
        : `${rows.length} collection${rows.length === 1 ? "" : "s"} with ${total} documents.`;
    return outcome({ collections: rows, total_documents: total }, { message });
  },
});
