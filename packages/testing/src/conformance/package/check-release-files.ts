import type { PackageJson } from "./types.js";

/** The README sections every plugin has, in this order. */
export const README_SECTIONS = ["Install", "Usage", "Options", "Tools"] as const;

/**
 * Checks what a user of the package reads besides the code: the README's sections (`## Install`,
 * `## Usage`, `## Options`, `## Tools`, in that order), that `src/internal/` is not importable
 * (`"./internal/*": null` in `exports`, and in `publishConfig.exports` when it has one), and, once the
 * package is released (a version above 0.0.0), the CHANGELOG.md changesets write. Returns what to change.
 *
 * @example
 * checkReleaseFiles(pkg, ["README.md", "CHANGELOG.md", "src/index.ts"], readme)
 */
export const checkReleaseFiles = (
  pkg: PackageJson,
  files: ReadonlyArray<string>,
  readme: string | undefined,
): string[] => {
  const problems: string[] = [];
  if (readme !== undefined) {
    const headings = [...readme.matchAll(/^##\s+(.+?)\s*$/gm)].map((m) => m[1]!);
    const found = README_SECTIONS.map((s) => headings.indexOf(s));
    const missing = README_SECTIONS.filter((_, i) => found[i] === -1);
    if (missing.length > 0)
      problems.push(
        `README.md lacks the section${missing.length > 1 ? "s" : ""} ${missing.map((s) => `"## ${s}"`).join(", ")}: every plugin README has ${README_SECTIONS.map((s) => `## ${s}`).join(", ")}.`,
      );
    else if (found.some((at, i) => i > 0 && at < found[i - 1]!))
      problems.push(`README.md: put the sections in the order ${README_SECTIONS.join(", ")}.`);
  }
  if (files.some((f) => f.startsWith("src/internal/")))
    for (const [where, exports] of [
      ["exports", pkg.exports],
      ["publishConfig.exports", (pkg.publishConfig as PackageJson | undefined)?.exports],
    ] as const) {
      if (where === "publishConfig.exports" && exports === undefined) continue;
      if ((exports as Record<string, unknown> | undefined)?.["./internal/*"] !== null)
        problems.push(
          `package.json ${where} must map "./internal/*" to null: src/internal/ is the package's own, never imported from outside.`,
        );
    }
  const released =
    typeof pkg.version === "string" && /^\d+\.\d+\.\d+/.test(pkg.version) && pkg.version !== "0.0.0";
  if (released && !files.includes("CHANGELOG.md"))
    problems.push(
      `CHANGELOG.md is missing: version ${pkg.version} is released, and changesets writes each release's notes there (\`pnpm changeset version\`).`,
    );
  return problems;
};
