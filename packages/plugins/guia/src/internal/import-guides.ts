import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { slug } from "@quiver/core";
import { describeGuide, type Guide, validateGuide } from "./guide.js";
import type { GuideStore } from "./stores/guide-store.js";

/**
 * The JSON and YAML files under a folder, searched recursively in name order, hidden ones left out;
 * none when the folder does not exist.
 */
export const guideFilesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? [] : Promise.reject(error),
  );
  const out: string[] = [];
  for (const d of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (d.name.startsWith(".")) continue;
    if (d.isDirectory()) out.push(...(await guideFilesUnder(join(dir, d.name))));
    else if (d.isFile() && /\.(json|ya?ml)$/i.test(d.name)) out.push(join(dir, d.name));
  }
  return out;
};

/** File names that say nothing about the subject: the id then comes from the folder name. */
const GENERIC = new Set(["guia_docente", "guia", "guide", "index", "data", "teaching_guide"]);

/** A file, or an item of a file, that was not imported, and why. */
export type Skipped = { source: string; reason: string };

/**
 * Reads a JSON or YAML file holding one guide, or an array of guides, and validates each: the file's
 * guides, and what in it was not a guide. Never throws for bad content: unreadable or invalid parts
 * are reported as skipped.
 */
export const readGuideFile = async (path: string) => {
  const guides: Guide[] = [];
  const skipped: Skipped[] = [];
  let parsed: unknown;
  try {
    const text = await readFile(path, "utf8");
    // yaml is imported here, at the first YAML file, not with the plugin: `quiver list` never pays for it.
    parsed = /\.ya?ml$/i.test(path)
      ? (await import("yaml")).parse(text, { maxAliasCount: 100 })
      : JSON.parse(text);
  } catch (error) {
    skipped.push({ source: path, reason: `cannot be read or parsed: ${(error as Error).message}` });
    return { guides, skipped };
  }
  // A file's own name (its folder's, for a generic name) is the fallback id of its one guide, not of
  // the guides in an array.
  const list = Array.isArray(parsed);
  const stem = basename(path, extname(path));
  const fallback = list ? undefined : GENERIC.has(slug(stem)) ? basename(dirname(path)) : stem;
  (list ? (parsed as unknown[]) : [parsed]).forEach((doc, i) => {
    const checked = validateGuide(doc, fallback);
    if (checked.ok) guides.push(checked.guide);
    else skipped.push({ source: list ? `${path}[${i}]` : path, reason: checked.reason });
  });
  return { guides, skipped };
};

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
