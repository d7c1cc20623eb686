import { defineToolWith } from "@quiver/core";
import { z } from "zod";
import type { PrivateRepoConfig, RepoResources } from "../config.js";

const output = z.object({
  collection: z.string(),
  documents: z.int().describe("Documents read"),
  added: z.int(),
  replaced: z.int(),
  unread: z.array(z.string()).describe("Files or records not read, and why"),
});

/**
 * `private_repo_add_folder`: adds a folder of documents from the caller's own import folder
 * (`<importPath>/<principal>/`) to one of their collections, as `quiver private-repo add` does,
 * reporting progress per file and per batch indexed. It may run as a task (its deadline 20 minutes).
 *
 * @example
 * await catalog.call("private_repo_add_folder", { folder: "papers", collection: "crispr" }, { session: { principal: "alice" } })
 */
export const privateRepoAddFolder = defineToolWith<PrivateRepoConfig, RepoResources>()({
  name: "private_repo_add_folder",
  title: "Add a folder to my repository",
  description:
    "Add a folder of your own import folder (Markdown, text, BibTeX, JSON Lines) to one of your collections. Use this when the scientist asks to add files they put there.",
  category: "private_repository",
  input: z.strictObject({
    folder: z.string().min(1).max(500).describe('A folder in your import folder, e.g. "papers"; "." for all'),
    collection: z
      .string()
      .min(1)
      .max(64)
      .describe(
        "Your collection to add to (lower-case letters, digits, '.', '_', '-'); created when missing.",
      ),
  }),
  output,
  examples: [{ input: { folder: "papers", collection: "crispr" } }],
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  policy: { timeout: "15 minutes", retry: false, cache: false },
  // As a task it ends at its own timeout first, with its answer, rather than at the task's deadline.
  task: { support: "optional", deadline: "20 minutes" },
  run: (input, ctx) => import("../internal/add-folder-run.js").then((m) => m.runAddFolder(input, ctx)),
});
