import type { LoadError } from "@quiver/search";
import { collectionNameProblem, ownerProblem } from "./names.js";
import { type Repository, type RepositoryLocation, withRepository } from "./repository.js";

/** Progress of {@link addDocuments}: files read (each of a folder's too), then documents indexed. */
export interface AddProgress {
  readonly phase: "loading" | "indexing";
  readonly done: number;
  readonly total: number;
  /** The file being read (loading phase), as given or within its folder. */
  readonly file?: string;
}

/** A file or record {@link addDocuments} could not read, as `path[:line]: why`. */
export const unreadLine = (e: LoadError) =>
  `${e.path}${e.line !== undefined ? `:${e.line}` : ""}: ${e.message}`;

/** Options of {@link addDocuments}. */
export interface AddDocumentsOptions extends RepositoryLocation {
  /** The scientist (principal) who owns the collection. */
  readonly owner: string;
  /** The collection to add to; created when missing. Lower-case letters, digits, `.`, `_`, `-`. */
  readonly collection: string;
  /** Files or folders: Markdown, text, BibTeX, JSON Lines / JSON (folders are read recursively). */
  readonly files: string | ReadonlyArray<string>;
  /** Called as files are read and as documents are indexed (for a progress bar). */
  readonly onProgress?: (progress: AddProgress) => void;
  /** The repository at `indexPath`, already open (left open); otherwise it is opened and closed here. */
  readonly repository?: Repository;
}

/**
 * Adds documents from files to one scientist's collection: what `quiver private-repo add` runs. Reads Markdown
 * (front matter for authors, date, DOI, tags), text, BibTeX and JSON Lines through @quiver/search's loaders,
 * indexes them (documents with an existing id are replaced) and logs the change in the audit log.
 *
 * It answers the owner and collection, the documents read from the files, how many were new and how many
 * replaced, the chunks indexed, the files or records that could not be read (the others were added) and the
 * files left out because their type is not supported. The plugin's tools see the documents at once.
 *
 * @example
 * const r = await addDocuments({ indexPath: ".quiver/private-repo", owner: "alice", collection: "papers", files: ["refs.bib", "notes/"],
 *   onProgress: ({ phase, done, total }) => bar.update(phase, done, total) });
 * console.log(`${r.added} added, ${r.replaced} replaced, ${r.errors.length} problems`);
 */
export const addDocuments = async ({ owner, onProgress, ...options }: AddDocumentsOptions) => {
  const collection = options.collection.trim().toLowerCase();
  const problem = ownerProblem(owner) ?? collectionNameProblem(collection);
  if (problem) throw new TypeError(problem);
  const files = typeof options.files === "string" ? [options.files] : [...options.files];
  if (files.length === 0) throw new TypeError("Give at least one file or folder to add.");

  const { loadDocuments } = await import("@quiver/search");
  const loaded = [];
  for (const [i, file] of files.entries()) {
    onProgress?.({ phase: "loading", done: i, total: files.length, file });
    // A folder's files one by one: its own count, each file named within it.
    const inFolder = ({ done, total, file: name }: Omit<AddProgress, "phase">) =>
      name !== undefined && total > 1
        ? onProgress?.({ phase: "loading", done, total, file: `${file}/${name}` })
        : undefined;
    loaded.push(await loadDocuments(file, { onProgress: inFolder }));
  }
  const documents = loaded.flatMap((l) => l.documents);
  const errors = loaded.flatMap((l) => l.errors);
  const skipped = loaded.flatMap((l) => l.skipped);
  onProgress?.({ phase: "loading", done: files.length, total: files.length });

  return withRepository(options, async (repo) => {
    const index = await repo.index(await repo.ensure(owner, collection));
    const result =
      documents.length === 0
        ? { added: 0, replaced: 0, chunks: 0 }
        : await index.add(documents, {
            onProgress: (done, total) => onProgress?.({ phase: "indexing", done, total }),
          });
    const target = `${owner}/${collection}`;
    const detail = `${result.added} added, ${result.replaced} replaced from ${files.length} path(s)`;
    await repo.audit({ principal: owner, action: "add", target, outcome: "ok", detail });
    return { owner, collection, documents: documents.length, ...result, errors, skipped };
  });
};
