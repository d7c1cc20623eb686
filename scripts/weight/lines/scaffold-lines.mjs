// The code lines of a plugin written by `scripts/create-plugin.mjs` (`pnpm create-plugin`), run into
// a temporary folder with its default tool.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countCodeLines } from "./count-code-lines.mjs";

const ID = "weight-probe";

/**
 * Scaffolds a one-tool plugin with the repository's `scripts/create-plugin.mjs` and counts its
 * TypeScript: `{ files: [{ file, lines }], lines, srcLines }` (every .ts file; those under src/).
 *
 * @example
 * scaffoldLines(repo).lines; // ≤ 80 is issue 36's target
 */
export const scaffoldLines = (repo) => {
  const root = mkdtempSync(join(tmpdir(), "quiver-weight-scaffold-"));
  try {
    execFileSync(process.execPath, [join(repo, "scripts", "create-plugin.mjs"), ID, "--root", root], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const dir = join(root, "packages", "plugins", ID);
    const files = readdirSync(dir, { recursive: true })
      .filter((f) => /\.[cm]?tsx?$/.test(f))
      .sort()
      .map((file) => ({ file, lines: countCodeLines(readFileSync(join(dir, file), "utf8"), file) }));
    const sum = (fs) => fs.reduce((n, f) => n + f.lines, 0);
    return { files, lines: sum(files), srcLines: sum(files.filter((f) => f.file.startsWith("src/"))) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};
