import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of guides shipped with the package (two real UGR guides, see demo/SOURCE.md). Computed in
 * a module at the top of `src/` so the path holds from `src/` and from the bundled `dist/` alike.
 */
export const SEED_GUIDES_DIR: string = resolve(dirname(fileURLToPath(import.meta.url)), "..", "demo");
