import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { findPackageDir } from "./find-candidates.js";

/**
 * The folder this host was installed into: the parent of the outermost `node_modules` in the host's
 * real path (an npx cache folder, a project, a global prefix), or undefined when the host runs from
 * a source checkout. `npx -p @quiver/host -p @quiver/plugin-fda quiver serve` installs both into one
 * npx folder whose package.json lists them: scanning that folder is how the host finds the plugins
 * installed beside it, whatever the working directory.
 *
 * @example
 * hostInstallRoot("/home/a/.npm/_npx/9f2c/node_modules/@quiver/host/dist/cli.js") // "/home/a/.npm/_npx/9f2c"
 */
export const hostInstallRoot = (from: string = fileURLToPath(import.meta.url)): string | undefined => {
  let real: string;
  try {
    real = realpathSync(from);
  } catch {
    real = from;
  }
  const at = real.indexOf(`${sep}node_modules${sep}`);
  return at < 0 ? undefined : real.slice(0, at) || sep;
};

/** The `@quiver/core` a folder's code imports: its package folder (real path) and version. */
export interface CoreCopy {
  readonly dir: string;
  readonly version: string | undefined;
}

/**
 * The `@quiver/core` that code in `from` resolves (Node's lookup, upwards), or undefined when none
 * is installed there. The host compares a plugin's copy with its own before importing the plugin.
 *
 * @example
 * coreCopyFrom(process.cwd())?.dir === hostCoreCopy()?.dir
 */
export const coreCopyFrom = (from: string): CoreCopy | undefined => {
  const dir = findPackageDir("@quiver/core", from);
  if (!dir) return undefined;
  let version: string | undefined;
  try {
    version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    version = undefined;
  }
  return { dir, version };
};

/** The `@quiver/core` this host runs on. */
export const hostCoreCopy = (): CoreCopy | undefined => coreCopyFrom(dirname(fileURLToPath(import.meta.url)));
