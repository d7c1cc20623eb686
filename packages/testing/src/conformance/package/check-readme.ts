import type { AnyPlugin } from "@quiver/core";

/**
 * Checks that the package has a README that names every tool (so users and registries see what the
 * plugin offers). Returns what to change.
 *
 * @example
 * checkReadme(readFileSync("README.md", "utf8"), plugin)
 */
export const checkReadme = (readme: string | undefined, plugin: Pick<AnyPlugin, "tools">): string[] => {
  if (readme === undefined)
    return ["README.md is missing: add one with install, usage, options and every tool."];
  return plugin.tools
    .filter((t) => !readme.includes(t.name))
    .map((t) => `README.md does not mention tool "${t.name}": list it (with what it does) in the README.`);
};
