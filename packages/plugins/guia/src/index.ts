import { definePlugin, type InjectMode, type Plugin, type PluginOptions } from "@quiver/core";
import pkg from "../package.json" with { type: "json" };
import { importCommand } from "./commands/import.js";
import { type GuiaConfig, guiaConfigSchema } from "./config.js";
import { guiaDemo } from "./demo.js";
import { openGuideStore } from "./internal/open-guide-store.js";
import type { GuiaResources, GuideStore } from "./internal/stores/guide-store.js";
import { guiaResources, guiaResourceTemplates } from "./resources.js";
import { getGuide } from "./tools/get-guide.js";

export { type GuiaConfig, guiaConfigSchema } from "./config.js";
export * from "./internal/guide.js";
export * from "./internal/stores/folder-store.js";
export { assertSubjectId, type GuiaResources, type GuideStore } from "./internal/stores/guide-store.js";
export * from "./internal/stores/mongo-store.js";
export type { GetGuideOutput } from "./tools/get-guide.js";
/**
 * Options of `createGuiaPlugin`: defaults for the settings (`guiaConfigSchema`; environment and host
 * config win), a ready `guideStore` (you close it; the store settings are then not used to open one),
 * and how the session's `asignatura` is used (default `default`): `default` keeps the field visible
 * and fills it from the session only when the model leaves it out; `override` hides it from the model
 * and always takes the session's value (a context-injected parameter).
 */
export type GuiaPluginOptions = PluginOptions<typeof guiaConfigSchema> & {
  readonly guideStore?: GuideStore;
  readonly sessionAsignatura?: InjectMode;
};

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
  return definePlugin<GuiaConfig, GuiaResources>({
    id: "guia",
    version: pkg.version,
    description:
      "The official teaching guide (guía docente) of a university subject: summary or one section.",
    instructions:
      "Use guia_get_guide for what a subject's official teaching guide says (grading, syllabus, bibliography, lecturers, rules); for what the course material explains, search the material instead.",
    config: guiaConfigSchema,
    defaults,
    // The list of guides, a guide whole and each of its sections (see the README's Resources).
    resources: guiaResources,
    resourceTemplates: guiaResourceTemplates,
    tools: [{ ...getGuide, inject: { asignatura: { from: "asignatura", mode: sessionAsignatura } } }],
    // A store is opened at the first call, not at import: `quiver list` never opens one.
    setup: ({ config, onClose }) => {
      if (guideStore) return { store: guideStore };
      const store = openGuideStore(config);
      onClose(() => store.close());
      return { store };
    },
    commands: [importCommand],
    demo: guiaDemo,
    health: async ({ resources: { store } }) => {
      const where = `${store.kind} store`;
      try {
        const subjects = (await store.list()).map((l) => l.subject);
        if (subjects.length > 0)
          return { ok: true, message: `${where}: ${subjects.length} guides (${subjects.join(", ")}).` };
        const fix = "Run `quiver guia import <file|folder>`.";
        return { ok: false, message: `${where} holds no guides.`, fix };
      } catch (error) {
        const message = `${where} failed: ${(error as Error).message}`;
        return { ok: false, message, fix: "Check GUIA_DIR or MONGODB_URI." };
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
