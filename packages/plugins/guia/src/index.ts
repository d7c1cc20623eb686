import { definePlugin, type InjectMode, type Plugin } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { importCommand } from "./commands/import.js";
import { GUIA_ENV, type GuiaConfig, guiaConfigSchema } from "./config.js";
import { guiaDemo } from "./demo.js";
import type { GuideStore } from "./internal/stores/guide-store.js";
import type { GuiaResources } from "./setup.js";
import { getGuide } from "./tools/get-guide.js";

export { GUIA_ENV, type GuiaConfig, guiaConfigSchema } from "./config.js";
export {
  describeGuide,
  type Guide,
  type GuideListing,
  type GuideValidation,
  isSubjectId,
  subjectId,
  validateGuide,
} from "./internal/guide.js";
export {
  createFolderGuideStore,
  type FolderGuideStoreOptions,
  SEED_GUIDES_DIR,
} from "./internal/stores/folder-store.js";
export { assertSubjectId, type GuideStore } from "./internal/stores/guide-store.js";
export { createMongoGuideStore, type MongoGuideStoreOptions } from "./internal/stores/mongo-store.js";
export type { GuiaResources } from "./setup.js";
export type { GetGuideOutput } from "./tools/get-guide.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;

/** Options of `createGuiaPlugin`: defaults for the settings (environment and host config win), plus a store. */
export interface GuiaPluginOptions {
  /** `folder` or `mongodb` (env GUIA_STORE). */
  readonly store?: "folder" | "mongodb";
  /** Folder of guides (env GUIA_DIR). */
  readonly guidesDir?: string;
  /** Serve the shipped UGR guides too (env GUIA_SEED, default true). */
  readonly seed?: boolean;
  /** MongoDB connection string (env MONGODB_URI). */
  readonly mongodbUri?: string;
  /** MongoDB database (env MONGODB_DB). */
  readonly mongodbDatabase?: string;
  /** MongoDB collection (env GUIA_MONGODB_COLLECTION, default guias). */
  readonly mongodbCollection?: string;
  /** A ready store (you close it); when given, the store settings above are not used to open one. */
  readonly guideStore?: GuideStore;
  /**
   * How the session's `asignatura` value is used (default `default`): `default` keeps the field visible
   * and fills it from the session only when the model leaves it out; `override` hides it from the model
   * and always takes the session's value (a context-injected parameter).
   */
  readonly sessionAsignatura?: InjectMode;
}

/**
 * Creates the guia plugin: the `guia_get_guide` tool over a folder of guides (default, seeded with two
 * real UGR guides) or MongoDB, the `quiver guia import <path…>` command, and a demo step.
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(createGuiaPlugin({ guidesDir: "./guias" }))
 * await catalog.call("guia_get_guide", { key: "evaluación" }, { session: { values: { asignatura: "metaheuristicas" } } })
 */
export const createGuiaPlugin = (options: GuiaPluginOptions = {}): Plugin<GuiaConfig, GuiaResources> => {
  const { guideStore, sessionAsignatura = "default", ...defaults } = options;
  const tool =
    sessionAsignatura === "override"
      ? { ...getGuide, inject: { asignatura: { from: "asignatura", mode: "override" as const } } }
      : getGuide;
  return definePlugin<GuiaConfig, GuiaResources>({
    specificationVersion: "v1",
    id: "guia",
    version: VERSION,
    description:
      "The official teaching guide (guía docente) of a university subject: summary or one section.",
    config: guiaConfigSchema,
    defaults,
    env: GUIA_ENV,
    tools: [tool],
    // The store code is loaded at the first call, not at import: `quiver list` never opens a store.
    setup: guideStore
      ? () => ({ store: guideStore })
      : (ctx) => import("./setup.js").then((m) => m.setupGuia(ctx)),
    commands: [importCommand],
    demo: guiaDemo,
    health: async ({ resources: { store } }) => {
      try {
        const listings = await store.list();
        return listings.length > 0
          ? {
              ok: true,
              message: `${store.kind} store: ${listings.length} guides (${listings.map((l) => l.subject).join(", ")}).`,
            }
          : {
              ok: false,
              message: `${store.kind} store holds no guides.`,
              fix: "Run `quiver guia import <file|folder>`.",
            };
      } catch (error) {
        return {
          ok: false,
          message: `${store.kind} store failed: ${(error as Error).message}`,
          fix: "Check GUIA_DIR or MONGODB_URI.",
        };
      }
    },
  });
};

/**
 * The guia plugin with settings from the environment (GUIA_DIR, GUIA_STORE, MONGODB_URI ...); the host
 * imports this default export.
 *
 * @example
 * import guia from "@quiver/plugin-guia"
 * catalog.register(guia)
 */
export default createGuiaPlugin();
