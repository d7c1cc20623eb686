import type { AnyPlugin } from "@quiver/core";
import { toolFile } from "./naming.js";

/**
 * Checks the `src` layout of the plugin contract: `src/index.ts`; `src/config.ts` when the plugin has a
 * config schema; `src/tools/` with exactly one file per tool, named after the tool without the
 * `<plugin_id>_` prefix in kebab case (`fda_search_drugs` → `src/tools/search-drugs.ts`). `files` are
 * package-relative paths with `/` separators. Returns what to change.
 *
 * @example
 * checkSrcLayout(["src/index.ts", "src/tools/search-drugs.ts"], fdaPlugin)
 */
export const checkSrcLayout = (
  files: ReadonlyArray<string>,
  plugin: Pick<AnyPlugin, "id" | "tools" | "config">,
): string[] => {
  const have = new Set(files);
  const problems: string[] = [];
  if (!have.has("src/index.ts"))
    problems.push(
      "src/index.ts is missing: the package entry exports create<Name>Plugin and the default plugin.",
    );
  if (plugin.config !== undefined && !have.has("src/config.ts"))
    problems.push("src/config.ts is missing: the plugin has a config schema, define it in src/config.ts.");
  const expected = new Map(plugin.tools.map((t) => [toolFile(plugin.id, t.name), t.name]));
  for (const [file, name] of expected)
    if (!have.has(file)) problems.push(`${file} is missing: put tool "${name}" in its own file ${file}.`);
  for (const file of files) {
    if (!file.startsWith("src/tools/") || expected.has(file) || /\.(test|spec)\.[cm]?tsx?$/.test(file))
      continue;
    problems.push(
      `${file} is not a tool file: src/tools/ holds one file per tool (${[...expected.keys()].join(", ")}); move shared code to src/internal/.`,
    );
  }
  return problems;
};
