import { existsSync, readFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";

/** One glossary entry, as stored (one JSON object per line). */
export interface GlossaryEntry {
  readonly term: string;
  readonly definition: string;
  readonly source?: string;
}

/** The lookup key of a term: case and surrounding space do not matter. */
export const termKey = (term: string): string => term.trim().toLowerCase();

/** Reads a glossary file into a map by term key; a missing file is an empty glossary. */
export const readGlossary = (file: string): Map<string, GlossaryEntry> => {
  const entries = new Map<string, GlossaryEntry>();
  if (!existsSync(file)) return entries;
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let entry: GlossaryEntry;
    try {
      entry = JSON.parse(line) as GlossaryEntry;
    } catch {
      throw new Error(`${file}:${i + 1} is not JSON: ${line.slice(0, 60)}`);
    }
    if (typeof entry.term !== "string" || typeof entry.definition !== "string") {
      throw new Error(`${file}:${i + 1} needs a "term" and a "definition" string.`);
    }
    entries.set(termKey(entry.term), entry);
  });
  return entries;
};

/** Appends entries to a glossary file (created when missing). */
export const appendGlossary = (file: string, entries: ReadonlyArray<GlossaryEntry>): Promise<void> =>
  appendFile(file, entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
