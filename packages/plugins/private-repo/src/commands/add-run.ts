import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type CommandContext, CommandUsageError } from "@quiver/core";
import type { PrivateRepoConfig, RepoResources } from "../config.js";
import { addDocuments, unreadLine } from "../internal/add-documents.js";
import { collectionNameProblem, ownerProblem } from "../internal/names.js";

const USAGE = "quiver private-repo add refs.bib --owner alice --collection papers";

const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/**
 * The body of `quiver private-repo add` (its definition is in add.ts): checks the call and adds the
 * documents; kept apart so listing the command does not load the document loaders and the repository.
 */
export const runAdd = async (ctx: CommandContext<PrivateRepoConfig, RepoResources>): Promise<number> => {
  const owner = text(ctx.flags.owner);
  const collection = text(ctx.flags.collection)?.trim().toLowerCase();
  if (!owner)
    throw new CommandUsageError("--owner <principal> is required: whose collection is this?", USAGE);
  if (!collection) throw new CommandUsageError("--collection <name> is required.", USAGE);
  const problem = ownerProblem(owner) ?? collectionNameProblem(collection);
  if (problem) throw new CommandUsageError(problem, "Use letters, digits, '.', '_' or '-'.");
  // At least one path: the host checks `positionals.min`.
  const files = ctx.args.map((f) => resolve(ctx.cwd, f));
  const missing = ctx.args.filter((_, i) => !existsSync(files[i]!));
  if (missing.length > 0)
    throw new CommandUsageError(
      `No such file or folder: ${missing.join(", ")}.`,
      "Give Markdown, text, BibTeX or JSON Lines files, or folders of them.",
    );
  const indexPath = resolve(ctx.cwd, text(ctx.flags.repo) ?? ctx.config.indexPath);
  const result = await addDocuments({
    indexPath,
    owner,
    collection,
    files,
    ...(resolve(ctx.config.indexPath) === indexPath ? { repository: ctx.resources.repository() } : {}),
    onProgress: (p) =>
      ctx.progress(p.done, p.total, p.phase === "loading" ? (p.file ?? "reading") : "documents"),
  });
  if (ctx.json) ctx.printJson({ repository: indexPath, ...result });
  // Lines for people (the host prints none in JSON mode).
  for (const e of result.errors) ctx.print(`not added ${unreadLine(e)}`);
  for (const f of result.skipped) ctx.print(`skipped ${f} (unsupported type)`);
  ctx.print(
    `added ${result.documents} documents to ${result.owner}/${result.collection} (${result.added} new, ${result.replaced} replaced, ${result.chunks} chunks) in ${indexPath}`,
  );
  return result.documents > 0 ? 0 : 1;
};
