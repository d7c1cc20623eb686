import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { canonicalJson } from "./canonical-json.js";
import { type Cassette, parseCassette } from "./cassette.js";
import { stringifyCassette } from "./stable-json.js";

/** Characters kept in a tool name used as a folder name. */
const UNSAFE = /[^A-Za-z0-9_.-]/g;

/**
 * Where the cassette of one tool call lives: `<dir>/<tool>/<first 16 hex of sha256(canonical input)>.json`.
 * The input is the scrubbed one (no secrets, no principal), so the same call finds the same file
 * whoever makes it.
 *
 * @example
 * cassettePath("cassettes", "fda_search_drugs", { limit: 1 }) // "cassettes/fda_search_drugs/6d1b….json"
 */
export const cassettePath = (dir: string, tool: string, input: unknown): string => {
  const hash = createHash("sha256").update(canonicalJson(input)).digest("hex").slice(0, 16);
  return join(dir, tool.replace(UNSAFE, "_"), `${hash}.json`);
};

/** Reads and validates a cassette file; `undefined` when there is none. Throws for a malformed one. */
export const readCassetteFile = (path: string): Cassette | undefined => {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TypeError(`${path} is not valid JSON`);
  }
  return parseCassette(parsed, path);
};

/** Writes a cassette (stable JSON) through a temporary file, so a reader never sees half of it. */
export const writeCassetteFile = (path: string, cassette: Cassette): void => {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, stringifyCassette(cassette));
  renameSync(temp, path);
};
