import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CommandSpec } from "../cli/command.js";
import { createProgress } from "../cli/progress.js";
import { EXIT, UsageError } from "../cli/usage-error.js";
import { pluginConfig, requireExport, requirePlugin } from "./plugin-helpers.js";

interface GuideStoreLike {
  readonly kind: string;
  close(): Promise<void>;
}
interface ImportReport {
  readonly imported: ReadonlyArray<{ subject: string; name: string; source: string; action: string }>;
  readonly skipped: ReadonlyArray<{ source: string; reason: string }>;
}
type ImportGuides = (
  path: string,
  store: GuideStoreLike,
  options?: { onProgress?: (done: number, total: number, file: string) => void },
) => Promise<ImportReport>;
type OpenGuideStore = (settings: Record<string, unknown>) => GuideStoreLike;

/** `quiver guia import <file|folder>`: loads teaching guides into the guia plugin's store. */
export const guiaImportCommand: CommandSpec = {
  name: "guia import",
  summary: "Import teaching guides (JSON/YAML file or folder) into the guia store",
  usage: "guia import <file|folder> [--dir <folder>] [--json]",
  description:
    "Validates each guide and reports what it skipped and why. Writes to the store the served\nget_guia tool reads: the folder in GUIA_DIR (or plugins.guia.options.guidesDir), or MongoDB\nwhen MONGODB_URI is set. Exit code 1 when nothing could be imported.",
  positionals: { min: 1, max: 1, names: "<file|folder>" },
  options: {
    dir: {
      type: "string",
      value: "<folder>",
      description: "Guide folder to write to (overrides GUIA_DIR for this run)",
    },
  },
  examples: [
    "GUIA_DIR=./guias quiver guia import ./more-guides",
    "quiver guia import guide.yaml --dir ./guias --json",
  ],
  run: (ctx) =>
    ctx.withHost(
      async (host) => {
        const path = resolve(ctx.args[0]!);
        if (!existsSync(path)) throw new UsageError(`${ctx.args[0]} does not exist.`);
        const guia = requirePlugin(host, "guia", "@quiver/plugin-guia");
        const importGuides = requireExport<ImportGuides>(guia, "importGuides");
        const openGuideStore = requireExport<OpenGuideStore>(guia, "openGuideStore");
        const dir = ctx.flags.dir as string | undefined;
        const config = await pluginConfig<Record<string, unknown>>(
          host,
          guia,
          dir ? { guidesDir: resolve(dir) } : {},
        );
        const kind = (config.store as string | undefined) ?? (config.mongodbUri ? "mongodb" : "folder");
        if (kind === "folder" && !config.guidesDir) {
          throw new UsageError(
            "No guide folder is configured, so imported guides would not be served.",
            "Set GUIA_DIR (or plugins.guia.options.guidesDir in quiver.config.json), or pass --dir <folder>.",
          );
        }
        const store = openGuideStore(config);
        const { out } = ctx;
        const progress = createProgress("importing", { tty: out.errTty });
        try {
          const report = await importGuides(path, store, {
            onProgress: (done, total, file) => progress.update(done, total, file),
          });
          progress.finish();
          const where = kind === "folder" ? String(config.guidesDir) : "MongoDB";
          if (out.json) out.printJson({ store: kind, target: where, ...report });
          else {
            const s = out.style;
            for (const i of report.imported)
              out.print(`${s.green(i.action)} ${s.bold(i.subject)} ${i.name} ${s.dim(`(${i.source})`)}`);
            for (const k of report.skipped) out.print(`${s.yellow("skipped")} ${k.source}: ${k.reason}`);
            out.print(
              s.dim(`${report.imported.length} imported into ${where}, ${report.skipped.length} skipped.`),
            );
          }
          return report.imported.length > 0 ? EXIT.ok : EXIT.failed;
        } finally {
          await store.close();
        }
      },
      { demo: false },
    ),
};
