import type { PluginSetup } from "@quiver/core";
import { indexLocationOf, type RagConfig } from "./config.js";
import { type EmbeddedBackend, openEmbeddedBackend } from "./internal/backends/embedded-backend.js";

/** What the rag plugin's tools, command and health check share: the embedded index, opened once. */
export interface RagResources {
  /**
   * The embedded index of this registration, opened at the first use and closed with the catalog.
   * A missing index file rejects (`unavailable`) and is tried again at the next call.
   */
  readonly embedded: () => Promise<EmbeddedBackend>;
}

/**
 * Opens the embedded index lazily: a registration on the HTTP backend never touches it, and a
 * missing file is reported at the call (never created empty).
 */
export const setupRag: PluginSetup<RagConfig, RagResources> = ({ config, onClose }) => {
  let opened: Promise<EmbeddedBackend> | undefined;
  onClose(() => opened?.then((index) => index.close()).catch(() => undefined));
  return {
    embedded: () =>
      (opened ??= openEmbeddedBackend(indexLocationOf(config)).catch((error: unknown) => {
        opened = undefined;
        throw error;
      })),
  };
};
