import type { GuiaConfig } from "../config.js";
import { createFolderGuideStore } from "./stores/folder-store.js";
import type { GuideStore } from "./stores/guide-store.js";
import { createMongoGuideStore } from "./stores/mongo-store.js";

/**
 * Opens the store the settings name (every field optional: the plugin's config fits): MongoDB when
 * `store` is `mongodb` (or a URI is given and no store is named), else the folder store over
 * `guidesDir` plus the shipped guides. Use it to give the host's `quiver guia import` the same store
 * the tool reads.
 *
 * @example
 * const store = openGuideStore({ guidesDir: process.env.GUIA_DIR })
 * console.log(await importGuides("./more-guides", store))
 */
export const openGuideStore = (settings: Partial<GuiaConfig> = {}): GuideStore => {
  const { mongodbUri: uri, mongodbDatabase: database, mongodbCollection: collection } = settings;
  if ((settings.store ?? (uri ? "mongodb" : "folder")) === "folder")
    return createFolderGuideStore({ dir: settings.guidesDir, seed: settings.seed });
  if (!uri) throw new Error("The mongodb guide store needs MONGODB_URI.");
  return createMongoGuideStore({ uri, database, collection });
};
