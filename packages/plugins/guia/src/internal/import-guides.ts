import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { ToolFailure } from "@quiver/core";
import { describeGuide } from "./guide.js";
import { guideFilesUnder, readGuideFile } from "./read-guide-file.js";
import type { GuideStore } from "./stores/guide-store.js";

/** What `importGuides` did with each file. */
export interface ImportReport {
  readonly imported: ReadonlyArray<{
    readonly subject: string;
    readonly name: string;
    readonly source: string;
    readonly action: "created" | "replaced";
  }>;
  readonly skipped: ReadonlyArray<{ readonly source: string; readonly reason: string }>;
}

/**
 * Loads guides from a JSON/YAML file (one guide or an array) or a folder of them into a store,
 * validating each: the report lists what was imported and what was skipped, with the reason. Backs
 * the host's `quiver guia import <file|folder>`. Throws only when the path does not exist.
 *
 * @example
 * const report = await importGuides("./guias", openGuideStore({ guidesDir: "~/.quiver/guias" }))
 * for (const s of report.skipped) console.warn(`skipped ${s.source}: ${s.reason}`)
 */
export const importGuides = async (
  pathOrFolder: string,
  store: GuideStore,
  options: { readonly onProgress?: (done: number, total: number, file: string) => void } = {},
): Promise<ImportReport> => {
  const root = resolve(pathOrFolder);
  const info = await stat(root);
  const files = info.isDirectory() ? await guideFilesUnder(root) : [root];
  const imported: ImportReport["imported"][number][] = [];
  const skipped: ImportReport["skipped"][number][] = [];
  const seen = new Map<string, string>();
  let done = 0;
  for (const file of files) {
    const read = await readGuideFile(file);
    skipped.push(...read.skipped);
    for (const guide of read.guides) {
      const earlier = seen.get(guide.subject);
      if (earlier) {
        skipped.push({
          source: file,
          reason: `same subject "${guide.subject}" as ${earlier}, imported first`,
        });
        continue;
      }
      try {
        const action = await store.put(guide);
        seen.set(guide.subject, file);
        imported.push({ subject: guide.subject, name: describeGuide(guide).name, source: file, action });
      } catch (error) {
        const message = ToolFailure.isInstance(error) ? error.message : (error as Error).message;
        skipped.push({ source: file, reason: `the ${store.kind} store refused it: ${message}` });
      }
    }
    options.onProgress?.(++done, files.length, file);
  }
  if (files.length === 0) skipped.push({ source: root, reason: "no .json, .yaml or .yml files found" });
  return { imported, skipped };
};
