import { join } from "node:path";
import { type AddDocumentsResult, addDocuments } from "./add-documents.js";

/**
 * Builds a demo repository from the project's shared data: the SciFact abstracts (../shared/data/beir-scifact)
 * as scientist `demo`'s collection `scifact`. The host's quick-start serves it.
 *
 * Use it to try `search_repository` without your own documents.
 *
 * @example
 * await buildDemoRepository({ indexPath: ".quiver/demo-repo", dataDir: "../shared/data" })
 * // then call search_repository as principal "demo"
 */
export const buildDemoRepository = (options: {
  readonly indexPath: string;
  /** The shared data folder (holding `beir-scifact/corpus.jsonl`). */
  readonly dataDir: string;
  /** Default `demo`. */
  readonly owner?: string;
  readonly onProgress?: Parameters<typeof addDocuments>[0]["onProgress"];
}): Promise<AddDocumentsResult> =>
  addDocuments({
    indexPath: options.indexPath,
    owner: options.owner ?? "demo",
    collection: "scifact",
    files: join(options.dataDir, "beir-scifact", "corpus.jsonl"),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
