import type { PluginSetup } from "@quiver/core";
import type { GuiaConfig } from "./config.js";
import { openGuideStore } from "./internal/open-guide-store.js";
import type { GuideStore } from "./internal/stores/guide-store.js";

/** What the guia plugin's tool, command and health check share: the guide store. */
export interface GuiaResources {
  readonly store: GuideStore;
}

/**
 * Opens the store the settings name (MongoDB, or the folder store with the shipped guides) once per
 * registration, and closes it with the catalog.
 */
export const setupGuia: PluginSetup<GuiaConfig, GuiaResources> = ({ config, onClose }) => {
  const store = openGuideStore(config);
  onClose(() => store.close());
  return { store };
};
