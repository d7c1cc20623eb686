import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginDemo } from "@quiver/core";

/** The demo data shipped with the package (see demo/SOURCE.md); here so the demo's definition stays light. */
export const DEMO_DIR: string = resolve(dirname(fileURLToPath(import.meta.url)), "..", "demo");

/**
 * The rag plugin's demo step: an embedded index of the data the package ships (two real UGR teaching
 * guides and 400 SciFact abstracts, see demo/SOURCE.md), built once and reused while the data and the
 * plugin version are unchanged. Skipped when the user chose their own index or service.
 */
export const ragDemo: PluginDemo = {
  skipWhenSet: ["RAG_SERVICE_URL", "RAG_INDEX_PATH", "RAG_BACKEND", "DATABASE_URL"],
  data: [DEMO_DIR],
  // The seed body (index builder) is loaded only when demo mode seeds, not at import.
  seed: (ctx) => import("./demo-seed.js").then((m) => m.seedRag(ctx)),
};
