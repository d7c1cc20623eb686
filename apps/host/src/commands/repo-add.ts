import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { CommandSpec } from "../cli/command.js";
import { createProgress } from "../cli/progress.js";
import { EXIT, UsageError } from "../cli/usage-error.js";
import { pluginConfig, requireExport, requirePlugin } from "./plugin-helpers.js";

interface AddDocumentsResult {
  readonly owner: string;
  readonly collection: string;
  readonly documents: number;
  readonly added: number;
  readonly replaced: number;
  readonly chunks: number;
  readonly errors: ReadonlyArray<{ path: string; line?: number; message: string }>;
  readonly skipped: ReadonlyArray<string>;
}
type AddDocuments = (o: {
  indexPath: string;
  owner: string;
  collection: string;
  files: ReadonlyArray<string>;
  onProgress?: (p: { phase: "loading" | "indexing"; done: number; total: number; file?: string }) => void;
}) => Promise<AddDocumentsResult>;

/** `quiver repo add <files…>`: adds documents to one scientist's private repository collection. */
export const repoAddCommand: CommandSpec = {
  name: "repo add",
  summary: "Add documents to a scientist's private repository collection",
  usage: "repo add <files…> --owner <principal> --collection <name> [--json]",
  description:
    "Reads Markdown (front matter: authors, date, DOI, tags), text, BibTeX and JSON lines; folders are\nread recursively. The owner is the principal a bearer token maps to; only they (and those the\ncollection is shared with) can search it. Writes the repository search_repository reads\n(QUIVER_PRIVATE_REPO, plugins.private-repo.options.indexPath, default .quiver/private-repo).\nDemo mode is off for this command. Exit code 1 when nothing was added.",
  positionals: { min: 1, names: "<files…>" },
  options: {
    owner: {
      type: "string",
      value: "<principal>",
      description: "The scientist who owns the collection (required)",
    },
    collection: {
      type: "string",
      value: "<name>",
      description: "The collection (created when missing; required)",
    },
    repo: {
      type: "string",
      value: "<folder>",
      description: "Repository folder (overrides QUIVER_PRIVATE_REPO for this run)",
    },
  },
  examples: [
    "quiver repo add refs.bib notes/ --owner alice --collection crispr",
    "quiver repo add corpus.jsonl --owner bob --collection scifact --json",
  ],
  run: async (ctx) => {
    const owner = ctx.flags.owner as string | undefined;
    const collection = ctx.flags.collection as string | undefined;
    if (!owner) throw new UsageError("--owner <principal> is required: whose collection is this?");
    if (!collection) throw new UsageError("--collection <name> is required.");
    const files = ctx.args.map((f) => resolve(f));
    const missing = ctx.args.filter((_, i) => !existsSync(files[i]!));
    if (missing.length > 0) throw new UsageError(`No such file or folder: ${missing.join(", ")}.`);
    return ctx.withHost(
      async (host) => {
        const repo = requirePlugin(host, "private-repo", "@quiver/plugin-private-repo");
        const addDocuments = requireExport<AddDocuments>(repo, "addDocuments");
        const config = await pluginConfig<{ indexPath: string }>(host, repo);
        const chosen = (ctx.flags.repo as string | undefined) ?? config.indexPath;
        const indexPath = isAbsolute(chosen) ? chosen : resolve(host.settings.cwd, chosen);
        const { out } = ctx;
        const progress = createProgress("adding", { tty: out.errTty });
        let result: AddDocumentsResult;
        try {
          result = await addDocuments({
            indexPath,
            owner,
            collection,
            files,
            onProgress: (p) =>
              progress.update(p.done, p.total, p.phase === "loading" ? (p.file ?? "reading") : "documents"),
          });
        } catch (error) {
          progress.finish();
          if (error instanceof TypeError) throw new UsageError(error.message);
          throw error;
        }
        progress.finish();
        if (out.json) out.printJson({ repository: indexPath, ...result });
        else {
          const s = out.style;
          for (const e of result.errors)
            out.print(
              `${s.yellow("not added")} ${e.path}${e.line !== undefined ? `:${e.line}` : ""}: ${e.message}`,
            );
          for (const f of result.skipped)
            out.print(`${s.dim("skipped")} ${f} ${s.dim("(unsupported type)")}`);
          out.print(
            `${s.green("added")} ${result.documents} documents to ${result.owner}/${result.collection} (${result.added} new, ${result.replaced} replaced, ${result.chunks} chunks) in ${indexPath}`,
          );
        }
        return result.documents > 0 ? EXIT.ok : EXIT.failed;
      },
      { demo: false },
    );
  },
};
