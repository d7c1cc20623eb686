import type { PluginCommand } from "@quiver/core";
import type { PrivateRepoConfig, RepoResources } from "../config.js";

/**
 * `quiver private-repo add <files…> --owner <principal> --collection <name>`: adds documents to one
 * scientist's collection. Exit 1 when nothing was added.
 */
export const addCommand: PluginCommand<PrivateRepoConfig, RepoResources> = {
  name: "add",
  summary: "Add documents to a scientist's private repository collection",
  description:
    "Reads Markdown (front matter: authors, date, DOI, tags), text, BibTeX and JSON lines; folders are\n" +
    "read recursively. The owner is the principal a bearer token maps to; only they (and those the\n" +
    "collection is shared with) can search it. Writes the repository private_repo_search reads\n" +
    "(QUIVER_PRIVATE_REPO, plugins.private-repo.options.indexPath, default .quiver/private-repo).\n" +
    "Exit code 1 when nothing was added.",
  positionals: { min: 1, names: "<files…>" },
  options: {
    owner: {
      type: "string",
      value: "<principal>",
      description: "The scientist who owns the collection",
      required: true,
    },
    collection: {
      type: "string",
      value: "<name>",
      description: "The collection (created when missing)",
      required: true,
    },
    repo: {
      type: "string",
      value: "<folder>",
      description: "Repository folder (overrides QUIVER_PRIVATE_REPO for this run)",
    },
  },
  examples: [
    "quiver private-repo add refs.bib notes/ --owner alice --collection crispr",
    "quiver private-repo add corpus.jsonl --owner bob --collection scifact --json",
  ],
  // The body (loaders, repository) is loaded only when the command runs, not when it is listed.
  run: (ctx) => import("./add-run.js").then((m) => m.runAdd(ctx)),
};
