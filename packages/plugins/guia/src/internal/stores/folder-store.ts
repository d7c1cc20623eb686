import { mkdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { SEED_GUIDES_DIR } from "../../seed-guides-dir.js";
import { describeGuide, type Guide } from "../guide.js";
import { guideFilesUnder, readGuideFile } from "../import-guides.js";
import { assertSubjectId, type GuideStore } from "./guide-store.js";

/** Options of the folder store. */
export interface FolderGuideStoreOptions {
  /** Your folder of guides (JSON or YAML, searched recursively); `put` writes here. */
  readonly dir?: string | undefined;
  /** Also serve the two real UGR guides shipped with the package (default true); yours win on the same id. */
  readonly seed?: boolean | undefined;
}

export { SEED_GUIDES_DIR };

const NO_FOLDER = "This guide store has no folder to write to: set GUIA_DIR (or the guidesDir option).";

/**
 * The embedded guide store: a folder of JSON or YAML guides (one per file, or an array per file),
 * plus the two real guides shipped with the package. Files are re-read only when they change.
 * The subject id is a guide's `subject` field, else its file name, else (for `guía_docente.json`)
 * its folder name.
 *
 * @example
 * const store = createFolderGuideStore({ dir: "./guias" })
 * await store.put({ subject: "algebra", data: { asignatura: "Guía docente de Álgebra", evaluación: [] } })
 */
export const createFolderGuideStore = (options: FolderGuideStoreOptions = {}): GuideStore => {
  const dir = options.dir ? resolve(options.dir) : undefined;
  const dirs = [...(dir ? [dir] : []), ...(options.seed === false ? [] : [SEED_GUIDES_DIR])];
  // Each file's guides, with the modification time and size they were read at.
  const cache = new Map<string, { version: string; guides: ReadonlyArray<Guide> }>();

  /** Every guide by id, the first found winning (your folder before the shipped one), with its file. */
  const load = async () => {
    const out = new Map<string, Guide & { readonly file: string }>();
    for (const file of (await Promise.all(dirs.map(guideFilesUnder))).flat()) {
      const { mtimeMs, size } = await stat(file);
      let entry = cache.get(file);
      if (entry?.version !== `${mtimeMs}:${size}`) {
        entry = { version: `${mtimeMs}:${size}`, guides: (await readGuideFile(file)).guides };
        cache.set(file, entry);
      }
      for (const g of entry.guides) if (!out.has(g.subject)) out.set(g.subject, { ...g, file });
    }
    return out;
  };

  return {
    kind: "folder",
    list: async () => [...(await load()).values()].map((g) => describeGuide(g)),
    get: async (subject) => {
      assertSubjectId(subject);
      const found = (await load()).get(subject);
      return found ? { subject: found.subject, data: found.data } : undefined;
    },
    put: async (guide) => {
      assertSubjectId(guide.subject);
      if (!dir) throw new Error(NO_FOLDER);
      const existing = (await load()).get(guide.subject);
      const inOwnDir = existing?.file.startsWith(dir) && extname(existing.file) === ".json";
      const target = inOwnDir && existing ? existing.file : join(dir, `${basename(guide.subject)}.json`);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, `${JSON.stringify({ subject: guide.subject, ...guide.data }, null, 2)}\n`);
      cache.delete(target);
      return existing ? "replaced" : "created";
    },
    close: async () => cache.clear(),
  };
};
