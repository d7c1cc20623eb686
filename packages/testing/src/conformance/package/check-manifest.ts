import type { PackageJson } from "./types.js";

/**
 * Checks what makes a package.json a Quiver plugin the host discovers: a semver `version`,
 * `"type": "module"`, the keyword `quiver-plugin` and the `"quiver": { "plugin": "./dist/index.js" }`
 * marker (a relative path). Returns what to change.
 *
 * @example
 * checkManifest(JSON.parse(readFileSync("package.json", "utf8")))
 */
export const checkManifest = (pkg: PackageJson): string[] => {
  const problems: string[] = [];
  if (typeof pkg.version !== "string" || !/^\d+\.\d+\.\d+(?:[-+].*)?$/.test(pkg.version))
    problems.push(
      `package.json "version" is ${JSON.stringify(pkg.version)}: give it a semver version such as "0.1.0".`,
    );
  if (pkg.type !== "module")
    problems.push(`package.json "type" must be "module" (the plugin is an ES module).`);
  if (!Array.isArray(pkg.keywords) || !pkg.keywords.includes("quiver-plugin"))
    problems.push(`package.json "keywords" must contain "quiver-plugin" (registries list plugins by it).`);
  const marker = (pkg.quiver as { plugin?: unknown } | undefined)?.plugin;
  if (typeof marker !== "string" || !marker.startsWith("./"))
    problems.push(
      `package.json needs the plugin marker "quiver": { "plugin": "./dist/index.js" } (a relative path to the built index), got ${JSON.stringify(pkg.quiver)}: the host discovers plugins by it.`,
    );
  // VERSIONING.md: one core per host, so a plugin takes @quiver/core as a peer, never as its own copy.
  const deps = pkg.dependencies as Record<string, string> | undefined;
  const peers = pkg.peerDependencies as Record<string, string> | undefined;
  if (deps?.["@quiver/core"] !== undefined)
    problems.push(
      `package.json lists "@quiver/core" in "dependencies": move it to "peerDependencies" (and "devDependencies" for your tests), so the host and the plugin share one core.`,
    );
  if (peers?.["@quiver/core"] === undefined)
    problems.push(
      `package.json needs "peerDependencies": { "@quiver/core": ">=0.1.0 <1.0.0" } (the range VERSIONING.md gives for the core you build against).`,
    );
  return problems;
};
