// A bundled server carries its plugin, @quiver/core, @quiver/mcp and the kit inside its build, named
// as devDependencies (the published package has none), so changesets never releases it when they
// change. This finds the servers a release plan must release too, and how: as the plugin is
// released (its tools are the server's interface), or as a patch when only the packages around the
// plugin change (a core major changes nothing an MCP client sees).

const ORDER = ["patch", "minor", "major"];

/** The workspace packages a package is built from, itself included (`dependencies`/`peerDependencies`, transitively). */
const closure = (name, byName, seen = new Set()) => {
  if (seen.has(name) || !byName.has(name)) return seen;
  seen.add(name);
  const pkg = byName.get(name);
  for (const dep of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})])
    closure(dep, byName, seen);
  return seen;
};

/**
 * The release each server needs that `plan` (changeset status --output) does not already give it:
 * a map of server name to "patch" | "minor" | "major".
 *
 * @example
 * serversToFollow(plan, workspacePackages()) // Map { "@quiver/fda-mcp" => "minor" }
 */
export const serversToFollow = (plan, packages) => {
  const byName = new Map(packages.map(({ pkg }) => [pkg.name, pkg]));
  const released = new Map(plan.releases.filter((r) => r.type !== "none").map((r) => [r.name, r.type]));
  const out = new Map();
  for (const { pkg } of packages) {
    if (pkg.private || pkg.mcpName === undefined || released.has(pkg.name)) continue;
    const bundled = Object.keys(pkg.devDependencies ?? {}).filter((d) => byName.has(d));
    const plugin = bundled.find((d) => byName.get(d).quiver?.plugin);
    const inside = new Set(bundled.flatMap((d) => [...closure(d, byName)]));
    const changed = [...inside].filter((d) => released.has(d));
    if (changed.length === 0) continue;
    const type = plugin && released.has(plugin) ? released.get(plugin) : "patch";
    out.set(pkg.name, ORDER.includes(type) ? type : "patch");
  }
  return out;
};
