import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { CommandUsageError, type PluginCommand } from "@quiver/core";
import type { GuiaConfig } from "../config.js";
import { importGuides } from "../internal/import-guides.js";
import { openGuideStore } from "../internal/open-guide-store.js";
import type { GuiaResources } from "../internal/stores/guide-store.js";

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
    dir: { type: "string", value: "<folder>", description: "Guide folder to write to (overrides GUIA_DIR)" },
  },
  examples: [
    "GUIA_DIR=./guias quiver guia import ./more-guides",
    "quiver guia import guide.yaml other.json --dir ./guias --json",
  ],
  run: async (ctx) => {
    const paths = ctx.args.map((p) => resolve(ctx.cwd, p));
    const missing = ctx.args.filter((_, i) => !existsSync(paths[i]!));
    if (missing.length > 0)
      throw new CommandUsageError(
        `${missing.join(", ")} does not exist.`,
        "Give a JSON/YAML guide or a folder of them.",
      );
    const dir =
      typeof ctx.flags.dir === "string" && ctx.flags.dir ? resolve(ctx.cwd, ctx.flags.dir) : undefined;
    const settings = dir ? { ...ctx.config, guidesDir: dir } : ctx.config;
    const store = dir ? openGuideStore(settings) : ctx.resources.store;
    try {
      if (store.kind === "folder" && !settings.guidesDir)
        throw new CommandUsageError(
          "No guide folder is configured, so imported guides would not be served.",
          "Set GUIA_DIR (or plugins.guia.options.guidesDir in quiver.config.json), or pass --dir <folder>.",
        );
      const reports = [];
      for (const path of paths) reports.push(await importGuides(path, store, { onProgress: ctx.progress }));
      const imported = reports.flatMap((r) => r.imported);
      const skipped = reports.flatMap((r) => r.skipped);
      const targets: Record<string, string> = { folder: String(settings.guidesDir), mongodb: "MongoDB" };
      const target = targets[store.kind] ?? store.kind;
      if (ctx.json) ctx.printJson({ store: store.kind, target, imported, skipped });
      else {
        for (const i of imported) ctx.print(`${i.action} ${i.subject} ${i.name} (${i.source})`);
        for (const k of skipped) ctx.print(`skipped ${k.source}: ${k.reason}`);
        ctx.print(`${imported.length} imported into ${target}, ${skipped.length} skipped.`);
      }
      return imported.length > 0 ? 0 : 1;
    } finally {
      if (dir) await store.close();
    }
  },
};
