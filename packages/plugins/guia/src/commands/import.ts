import type { PluginCommand } from "@quiver/core";
import type { GuiaConfig } from "../config.js";
import type { GuiaResources } from "../setup.js";

/**
 * `quiver guia import <path…>`: validates teaching guides (JSON/YAML files or folders) and loads them
 * into the store `guia_get_guide` reads. Exit 1 when nothing could be imported.
 */
export const importCommand: PluginCommand<GuiaConfig, GuiaResources> = {
  name: "import",
  summary: "Import teaching guides (JSON/YAML files or folders) into the guia store",
  description:
    "Validates each guide and reports what it skipped and why. Writes to the store the served\n" +
    "guia_get_guide tool reads: the folder in GUIA_DIR (or plugins.guia.options.guidesDir), or MongoDB\n" +
    "when MONGODB_URI is set. Exit code 1 when nothing could be imported.",
  positionals: { min: 1, names: "<path…>" },
  options: {
    dir: {
      type: "string",
      value: "<folder>",
      description: "Guide folder to write to (overrides GUIA_DIR for this run)",
    },
  },
  examples: [
    "GUIA_DIR=./guias quiver guia import ./more-guides",
    "quiver guia import guide.yaml other.json --dir ./guias --json",
  ],
  // The body (importer, stores) is loaded only when the command runs, not when it is listed.
  run: (ctx) => import("./import-run.js").then((m) => m.runImport(ctx)),
};
