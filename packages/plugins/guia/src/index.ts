import { createGuiaPlugin } from "./create-guia-plugin.js";

export type { InjectMode as SessionAsignatura } from "@quiver/core";
export { GUIA_ENV, type GuiaConfig, guiaConfigSchema } from "./config.js";
export { createGuiaPlugin, type GuiaPluginOptions } from "./create-guia-plugin.js";
export {
  describeGuide,
  type Guide,
  type GuideListing,
  type GuideValidation,
  isSubjectId,
  subjectId,
  validateGuide,
} from "./guide.js";
export { type ImportReport, importGuides } from "./import-guides.js";
export { type GuideStoreSettings, openGuideStore } from "./open-guide-store.js";
export {
  createFolderGuideStore,
  type FolderGuideStoreOptions,
  SEED_GUIDES_DIR,
} from "./stores/folder-store.js";
export { assertSubjectId, type GuideStore } from "./stores/guide-store.js";
export { createMongoGuideStore, type MongoGuideStoreOptions } from "./stores/mongo-store.js";
export { type GetGuiaDeps, type GetGuiaOutput, makeGetGuiaTool } from "./tools/get-guia.js";
export { VERSION } from "./version.js";

/**
 * The guia plugin with settings from the environment (GUIA_DIR, GUIA_STORE, MONGODB_URI ...); the host
 * imports this default export.
 *
 * @example
 * import guia from "@quiver/plugin-guia"
 * catalog.register(guia)
 */
export default createGuiaPlugin();
