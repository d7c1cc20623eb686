// lone-clone: allow-file the deprecated helper for benchmarks; tests and demos must not call it.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * @deprecated For benchmarks only: tests and demos must read no data from outside the repository (copy
 * what they need into a `fixtures/` folder with a SOURCE.md); `scripts/check-lone-clone.mjs` fails on
 * any use outside `bench/`. Kept exported until the remaining importers have moved to fixtures.
 *
 * The folder of the project's real public test data (`shared/data`, beside the repository), found by
 * walking up from `from` (default: the working directory). Returns undefined when it is absent, so a
 * test can skip with a printed reason.
 *
 * @example
 * const corpus = join(sharedDataDir()!, "beir-scifact", "corpus.jsonl")
 */
export const sharedDataDir = (from: string = process.cwd()): string | undefined => {
  if (process.env.QUIVER_SHARED_DATA && existsSync(process.env.QUIVER_SHARED_DATA))
    return process.env.QUIVER_SHARED_DATA;
  let dir = resolve(from);
  for (;;) {
    for (const candidate of [join(dir, "shared", "data"), join(dir, "..", "shared", "data")]) {
      if (existsSync(join(candidate, "README.md"))) return resolve(candidate);
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
};

/**
 * @deprecated For benchmarks only (see `sharedDataDir`).
 *
 * A path inside the shared data folder; throws a clear error when the folder is absent.
 */
export const sharedDataPath = (...segments: string[]): string => {
  const dir = sharedDataDir();
  if (!dir)
    throw new Error(
      "The shared data folder (../shared/data beside the repository) was not found; set QUIVER_SHARED_DATA.",
    );
  return join(dir, ...segments);
};
