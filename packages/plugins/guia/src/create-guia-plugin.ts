import { definePlugin, type InjectMode, type Plugin } from "@quiver/core";
import { z } from "zod";
import { GUIA_ENV, type GuiaConfig, guiaConfigSchema } from "./config.js";
import { openGuideStore } from "./open-guide-store.js";
import type { GuideStore } from "./stores/guide-store.js";
import { makeGetGuiaTool } from "./tools/get-guia.js";
import { VERSION } from "./version.js";

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
  /** A ready store; when given, the settings above are ignored. */
  readonly guideStore?: GuideStore;
  /**
   * How the session's `asignatura` value is used (default `default`): `default` keeps the field visible
   * and fills it from the session only when the model leaves it out; `override` hides it from the model
   * and always takes the session's value (a context-injected parameter).
   */
  readonly sessionAsignatura?: InjectMode;
}

/**
 * Creates the guia plugin: one tool, `get_guia`, over a folder of guides (default, seeded with two
 * real UGR guides) or MongoDB.
 *
 * @example
 * const catalog = createCatalog()
 * catalog.register(createGuiaPlugin({ guidesDir: "./guias" }))
 * await catalog.call("get_guia", { key: "evaluación" }, { session: { values: { asignatura: "metaheuristicas" } } })
 */
export const createGuiaPlugin = (options: GuiaPluginOptions = {}): Plugin<GuiaConfig> => {
  const { guideStore, sessionAsignatura = "default", ...defaults } = options;
  const stores = new Map<GuiaConfig, GuideStore>();
  const storeFor = (config: GuiaConfig): GuideStore => {
    if (guideStore) return guideStore;
    let store = stores.get(config);
    if (!store) {
      store = openGuideStore(config);
      stores.set(config, store);
    }
    return store;
  };
  return definePlugin<GuiaConfig>({
    specificationVersion: "v1",
    id: "guia",
    version: VERSION,
    description:
      "The official teaching guide (guía docente) of a university subject: summary or one section.",
    config: withDefaults(defaults),
    env: GUIA_ENV,
    tools: [makeGetGuiaTool({ storeFor, sessionAsignatura })],
    health: async ({ config }) => {
      const store = storeFor(config);
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
    dispose: async () => {
      const open = [...stores.values()];
      stores.clear();
      await Promise.all(open.map((s) => s.close()));
    },
  });
};

/** The config schema with the factory's options as defaults under whatever the host passes. */
const withDefaults = (
  defaults: Omit<GuiaPluginOptions, "guideStore" | "sessionAsignatura">,
): z.ZodType<GuiaConfig> => {
  const given = Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined));
  return z.preprocess(
    (raw) => (raw && typeof raw === "object" ? { ...given, ...(raw as Record<string, unknown>) } : raw),
    guiaConfigSchema,
  ) as unknown as z.ZodType<GuiaConfig>;
};
