import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * A fingerprint of the inputs of a demo build (plugin version + data files' sizes and mtimes), so a
 * build is reused when nothing changed and redone when the data or the plugin did.
 *
 * @example
 * const key = fingerprint("rag@0.1.0", ["/data/beir-scifact/corpus.jsonl"])
 */
export const fingerprint = (tag: string, files: ReadonlyArray<string>): string =>
  [
    tag,
    ...files.map((f) => {
      if (!existsSync(f)) return `${f}:-`;
      const s = statSync(f);
      return `${f}:${s.size}:${Math.round(s.mtimeMs)}`;
    }),
  ].join("|");

/** True when `output` exists and was built from `key` (recorded in `<output>.stamp`). */
export const isFresh = (output: string, key: string): boolean => {
  const stamp = `${output}.stamp`;
  return existsSync(output) && existsSync(stamp) && readFileSync(stamp, "utf8") === key;
};

/** Records that `output` was built from `key`. */
export const markFresh = async (output: string, key: string, dir: string): Promise<void> => {
  await mkdir(dir, { recursive: true });
  await writeFile(`${output}.stamp`, key);
};

/** The demo cache file for a plugin. */
export const cachePath = (cacheDir: string, name: string): string => join(cacheDir, name);
