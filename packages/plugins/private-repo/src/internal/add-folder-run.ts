import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { fail, outcome, type ToolContext } from "@quiver/core";
import type { PrivateRepoConfig, RepoResources } from "../config.js";
import { readingIndexes, requireCaller } from "./access.js";
import { type AddProgress, addDocuments, unreadLine } from "./add-documents.js";
import { collectionNameProblem } from "./names.js";

/** A principal as one folder name: URL-encoded, a leading dot too (no `.`, `..` or hidden folder). */
const folderName = (principal: string) => encodeURIComponent(principal).replace(/^\./, "%2E");

const inside = (root: string, target: string) => {
  const path = relative(root, target);
  return !path.startsWith("..") && !isAbsolute(path);
};

/**
 * The folder a caller asked to add, resolved inside their own import folder, or `invalid_input`:
 * an absolute path, a path out of it (`..`, a link leading out), or one that is not a folder there.
 * Another scientist's import folder is out of reach: it is outside the caller's.
 */
const callerFolder = async (config: PrivateRepoConfig, principal: string, folder: string) => {
  // The caller's own import folder: `<importPath>/<principal>/` (`importPath` default `<indexPath>/imports`).
  const root = resolve(config.importPath ?? join(config.indexPath, "imports"), folderName(principal));
  const target = resolve(root, folder);
  const refuse = (why: string) =>
    fail.invalidInput(`"${folder}" ${why}.`, {
      suggestion:
        'Name a folder inside your import folder (the repository\'s imports/<your principal>/), e.g. "papers"; "." is all of it.',
    });
  if (isAbsolute(folder) || !inside(root, target)) throw refuse("is not inside your import folder");
  const real = await realpath(target).catch(() => {
    throw refuse("does not exist in your import folder");
  });
  if (!inside(await realpath(root), real)) throw refuse("leads out of your import folder");
  if (!(await stat(real)).isDirectory()) throw refuse("is not a folder");
  return real;
};

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
  const progressMessage = ({ phase, done, total, file }: AddProgress) =>
    phase === "loading"
      ? `reading ${shown(file)} (${done} of ${total} files read)`
      : `indexing: ${done} of ${total} documents`;
  const { documents, added, replaced, errors, skipped } = await readingIndexes(() =>
    addDocuments({
      indexPath: ctx.config.indexPath,
      owner: caller.principal,
      collection,
      files: [folder],
      repository: repo,
      onProgress: (p) => ctx.progress({ progress: p.done, total: p.total, message: progressMessage(p) }),
    }),
  );
  const problems = errors.length > 0 ? ` ${errors.length} files or records could not be read.` : "";
  if (documents === 0)
    throw fail.invalidInput(`"${input.folder}" holds no document that could be read.${problems}`, {
      suggestion: "Put Markdown, text, BibTeX or JSON Lines files in it, then call again.",
    });
  const unread = [...errors.map(unreadLine), ...skipped.map((f) => `${f}: unsupported type`)];
  const message = `Added ${documents} documents from "${input.folder}" to your collection ${collection} (${added} new, ${replaced} replaced).${problems}`;
  return outcome({ collection, documents, added, replaced, unread }, { message });
};
