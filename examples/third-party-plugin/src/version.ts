import { readFileSync } from "node:fs";

/** This package's version, read from its package.json (src/ and dist/ sit one level below it). */
export const VERSION: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;
