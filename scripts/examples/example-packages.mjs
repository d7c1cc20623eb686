// The packages whose examples are checked: each one's source files, public entry points, the
// workspace packages it may import from, and its prelude.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { workspacePackages } from "../workspace.mjs";

export const root = join(import.meta.dirname, "../..");
const preludes = join(import.meta.dirname, "preludes");
const isSource = (f) =>
  f.endsWith(".ts") &&
  !f.endsWith(".d.ts") &&
  !/\.test(-helpers)?\.ts$/.test(f) &&
  !f.includes("__snapshots__");

const sourceFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === "test" || name === "__snapshots__" ? [] : sourceFiles(path);
    return isSource(name) ? [path] : [];
  });

/** Import specifiers of a manifest's public entry points (`@quiver/mcp`, `@quiver/mcp/server`, ...). */
const entriesOf = (pkg) =>
  Object.entries(pkg.exports ?? {})
    .filter(([key, target]) => target !== null && !key.includes("*") && !key.endsWith(".json"))
    .map(([key]) => (key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`));

/**
 * The published packages with a src folder (packages/*, packages/plugins/*, apps/host): `{ name, dir,
 * rel, files, entries, deps, preludes }`, `deps` being the entries of the workspace packages it depends
 * on, `preludes` its own prelude (when it has one), plugin.ts for a plugin, and common.ts.
 */
export const examplePackages = () => {
  const all = workspacePackages();
  const byName = new Map(all.map(({ dir, pkg }) => [pkg.name, { dir, pkg }]));
  return all
    .filter(({ dir, pkg }) => !pkg.private && existsSync(join(dir, "src")))
    .map(({ dir, pkg }) => {
      const depNames = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies });
      const deps = depNames
        .filter((n) => byName.has(n) && n !== pkg.name)
        .flatMap((n) => entriesOf(byName.get(n).pkg));
      const short = pkg.name.replace(/^@quiver\//, "");
      const own = join(preludes, `${short}.ts`);
      return {
        name: pkg.name,
        dir,
        rel: relative(root, dir),
        files: sourceFiles(join(dir, "src")),
        entries: entriesOf(pkg),
        deps,
        preludes: [
          ...(existsSync(own) ? [own] : []),
          ...(pkg.name.startsWith("@quiver/plugin-") ? [join(preludes, "plugin.ts")] : []),
          join(preludes, "common.ts"),
        ],
      };
    });
};
