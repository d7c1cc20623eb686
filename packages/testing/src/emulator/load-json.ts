import { readFileSync } from "node:fs";

/**
 * Reads and parses a JSON file synchronously; the error names the file when it is missing or
 * malformed.
 *
 * Use it to serve recorded fixtures from a route. Pass an absolute path or a `file:` URL (for
 * example `new URL("./fixtures/x.json", import.meta.url)`); the type parameter is a cast, not a check.
 *
 * @example
 * const page1 = loadJson(new URL("fixtures/openfda/drugsfda_semaglutide_limit2_page1.json", import.meta.url));
 * up.route("GET", "/drug/drugsfda.json", { json: page1 });
 */
export const loadJson = <T = unknown>(path: string | URL): T => {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`loadJson: cannot read ${String(path)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`loadJson: ${String(path)} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
};
