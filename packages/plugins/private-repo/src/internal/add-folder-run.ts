import { fail, outcome, type ToolContext } from "@quiver/core";
import type { PrivateRepoConfig } from "../config.js";
import type { RepoResources } from "../setup.js";
import type { AddFolderOutput } from "../tools/add-folder.js";
import { requireCaller } from "./access.js";
import { addDocuments } from "./add-documents.js";
import { readingIndexes } from "./errors.js";
import { callerFolder } from "./import-folder.js";
import { collectionNameProblem } from "./names.js";

/**
 * The body of `private_repo_add_folder` (its definition is in tools/add-folder.ts): the caller's
 * folder into their own collection, through {@link addDocuments} (what `quiver private-repo add`
 * runs), its progress as the tool's: each file read, then the documents indexed.
 */
export const runAddFolder = async (
  input: { readonly folder: string; readonly collection: string },
  ctx: ToolContext<PrivateRepoConfig, RepoResources>,
) => {
  const { repo, caller } = await requireCaller(ctx, "add");
  const collection = input.collection.trim().toLowerCase();
  const problem = collectionNameProblem(collection);
  if (problem)
    throw fail.invalidInput(problem, { suggestion: 'Use a name such as "crispr" or "reviews-2024".' });
  const folder = await callerFolder(ctx.config, caller.principal, input.folder);
  // A file as the caller named its folder, never the server's path to it.
  const shown = (file: string | undefined) =>
    file?.startsWith(`${folder}/`) ? `${input.folder}/${file.slice(folder.length + 1)}` : input.folder;
  const result = await readingIndexes(() =>
    addDocuments({
      indexPath: ctx.config.indexPath,
      owner: caller.principal,
      collection,
      files: [folder],
      repository: repo,
      onProgress: (p) =>
        ctx.progress({
          progress: p.done,
          total: p.total,
          message:
            p.phase === "loading"
              ? `reading ${shown(p.file)} (${p.done} of ${p.total} files read)`
              : `indexing: ${p.done} of ${p.total} documents`,
        }),
    }),
  );
  const problems =
    result.errors.length > 0 ? ` ${result.errors.length} files or records could not be read.` : "";
  const message = `Added ${result.documents} documents from "${input.folder}" to your collection ${collection} (${result.added} new, ${result.replaced} replaced).${problems}`;
  if (result.documents === 0)
    throw fail.invalidInput(`"${input.folder}" holds no document that could be read.${problems}`, {
      suggestion: "Put Markdown, text, BibTeX or JSON Lines files in it, then call again.",
    });
  const unread = [
    ...result.errors.map((e) => `${e.path}${e.line !== undefined ? `:${e.line}` : ""}: ${e.message}`),
    ...result.skipped.map((f) => `${f}: unsupported type`),
  ];
  const { documents, added, replaced } = result;
  const data: AddFolderOutput = { collection, documents, added, replaced, unread };
  return outcome(data, { message });
};
