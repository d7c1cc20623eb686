import { createRequire } from "node:module";

/**
 * The version of @quiver/plugin-rag, read at run time from the package's own package.json (one level above
 * both src/ and dist/), so it can never drift from the version changesets writes there.
 */
export const VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string })
  .version;
