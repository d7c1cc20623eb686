import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { describeGuide } from "./guide.js";
import { guideFilesUnder, readGuideFile, type Skipped } from "./read-guide-file.js";
import type { GuideStore } from "./stores/guide-store.js";

/** What `importGuides` did with each file. */
export type ImportReport = Awaited<ReturnType<typeof importGuides>>;

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
) => {
  const root = resolve(pathOrFolder);
  const files = (await stat(root)).isDirectory() ? await guideFilesUnder(root) : [root];
  const imported: Array<{ subject: string; name: string; source: string; action: "created" | "replaced" }> =
    [];
  const skipped: Skipped[] = [];
  const skip = (source: string, reason: string) => skipped.push({ source, reason });
  for (const [i, file] of files.entries()) {
    const read = await readGuideFile(file);
    skipped.push(...read.skipped);
    for (const guide of read.guides) {
      const earlier = imported.find((i) => i.subject === guide.subject)?.source;
      if (earlier) {
        skip(file, `same subject "${guide.subject}" as ${earlier}, imported first`);
        continue;
      }
      try {
        const action = await store.put(guide);
        imported.push({ subject: guide.subject, name: describeGuide(guide).name, source: file, action });
      } catch (error) {
        skip(file, `the ${store.kind} store refused it: ${(error as Error).message}`);
      }
    }
    options.onProgress?.(i + 1, files.length, file);
  }
  if (files.length === 0) skip(root, "no .json, .yaml or .yml files found");
  return { imported, skipped };
};
