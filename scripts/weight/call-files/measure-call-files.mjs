// The call-file count of issue 36: the first-party source files whose code runs during one warm
// `fda_search_drugs` call (cache miss, runtime loaded) through `quiver serve`'s HTTP API.
import { relative } from "node:path";
import { coverCall } from "./covered-call.mjs";
import { mapToSources } from "./map-to-sources.mjs";
import { REPO, serveFda } from "./serve-fda.mjs";
import { groupOf, lineCount, packageOf } from "./source-packages.mjs";

/** The plugin whose tool is measured. */
export const PLUGIN = "@quiver/plugin-fda";
const TOOL = "fda_search_drugs";
/** The lines above which a source file is too long (the working rules' limit). */
export const MAX_LINES = 250;

/** A distinct input per call, so no call hits the result cache of an earlier one. */
const inputs = (run) => (i) => ({
  search_criteria: { active_ingredient: `tirzepatide ${run}-${i}` },
  max_results: 1,
});

/**
 * Serves fda, covers one warm call and groups the source files it ran:
 * `{ files: [{ file, package, group, lines, functions }], byGroup, byPackage, unmapped }`; `file` is
 * relative to the repository. `warmups` calls come first (default 1).
 *
 * @example
 * const { byGroup } = await measureCallFiles();
 * byGroup.core; // 46 on 0.1.0
 */
export const measureCallFiles = async ({ warmups = 1 } = {}) => {
  const server = await serveFda();
  let covered;
  try {
    covered = await coverCall({
      inspector: server.inspector,
      base: server.base,
      tool: TOOL,
      inputs: inputs(Date.now().toString(36)),
      upstreamRequests: () => server.upstream.requests.length,
      warmups,
    });
  } finally {
    await server.close();
  }
  const { mapped, unmapped } = mapToSources(covered.functions, REPO);
  const bySource = new Map();
  for (const fn of mapped) {
    if (relative(REPO, fn.source).split("/").includes("node_modules")) continue;
    const entry = bySource.get(fn.source) ?? { source: fn.source, functions: [] };
    entry.functions.push(fn.name || "(anonymous)");
    bySource.set(fn.source, entry);
  }
  const files = [...bySource.values()]
    .map(({ source, functions }) => {
      const name = packageOf(source);
      return {
        file: relative(REPO, source),
        package: name,
        group: groupOf(name, PLUGIN),
        lines: lineCount(source),
        functions: [...new Set(functions)],
      };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
  const tally = (key) => {
    const out = {};
    for (const f of files) out[f[key]] = (out[f[key]] ?? 0) + 1;
    return out;
  };
  const byGroup = { plugin: 0, "host+mcp": 0, core: 0, other: 0, ...tally("group") };
  byGroup.outsidePlugin = files.length - byGroup.plugin;
  return {
    tool: TOOL,
    files,
    byGroup,
    byPackage: tally("package"),
    unmapped: unmapped.map((fn) => ({ file: relative(REPO, fn.path), name: fn.name, start: fn.start })),
  };
};
