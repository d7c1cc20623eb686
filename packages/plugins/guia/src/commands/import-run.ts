import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type CommandContext, CommandUsageError } from "@quiver/core";
import type { GuiaConfig } from "../config.js";
import { type ImportReport, importGuides } from "../internal/import-guides.js";
import { openGuideStore } from "../internal/open-guide-store.js";
import type { GuiaResources } from "../setup.js";

const NO_FOLDER_HINT =
  "Set GUIA_DIR (or plugins.guia.options.guidesDir in quiver.config.json), or pass --dir <folder>.";

/**
 * The body of `quiver guia import <path…>` (its definition is in import.ts): imports the guides into
 * the store and reports; kept apart so listing the command does not load the importer and the stores.
 */
export const runImport = async (ctx: CommandContext<GuiaConfig, GuiaResources>): Promise<number> => {
  if (ctx.args.length === 0)
    throw new CommandUsageError("Give at least one guide file or folder.", "quiver guia import ./guias");
  const paths = ctx.args.map((p) => resolve(ctx.cwd, p));
  const missing = ctx.args.filter((_, i) => !existsSync(paths[i]!));
  if (missing.length > 0) {
    throw new CommandUsageError(
      `${missing.join(", ")} does not exist.`,
      "Give a JSON/YAML guide or a folder of them.",
    );
  }
  const dir =
    typeof ctx.flags.dir === "string" && ctx.flags.dir !== "" ? resolve(ctx.cwd, ctx.flags.dir) : undefined;
  const settings: GuiaConfig = dir ? { ...ctx.config, guidesDir: dir } : ctx.config;
  const store = dir ? openGuideStore(settings) : ctx.resources.store;
  const kind = store.kind;
  try {
    if (kind === "folder" && !settings.guidesDir) {
      throw new CommandUsageError(
        "No guide folder is configured, so imported guides would not be served.",
        NO_FOLDER_HINT,
      );
    }
    const imported: ImportReport["imported"][number][] = [];
    const skipped: ImportReport["skipped"][number][] = [];
    for (const path of paths) {
      const report = await importGuides(path, store, {
        onProgress: (done, total, file) => ctx.progress(done, total, file),
      });
      imported.push(...report.imported);
      skipped.push(...report.skipped);
    }
    const target = kind === "folder" ? String(settings.guidesDir) : kind === "mongodb" ? "MongoDB" : kind;
    if (ctx.json) ctx.printJson({ store: kind, target, imported, skipped });
    else {
      for (const i of imported) ctx.print(`${i.action} ${i.subject} ${i.name} (${i.source})`);
      for (const k of skipped) ctx.print(`skipped ${k.source}: ${k.reason}`);
      ctx.print(`${imported.length} imported into ${target}, ${skipped.length} skipped.`);
    }
    return imported.length > 0 ? 0 : 1;
  } finally {
    if (dir) await store.close();
  }
};
