import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { fail } from "@quiver/core";
import type { PrivateRepoConfig } from "../config.js";

/** A principal as one folder name: URL-encoded, a leading dot too (no `.`, `..` or hidden folder). */
const folderName = (principal: string) => encodeURIComponent(principal).replace(/^\./, "%2E");

/** The caller's own import folder: `<importPath>/<principal>/` (`importPath` default `<indexPath>/imports`). */
export const importRoot = (config: Pick<PrivateRepoConfig, "importPath" | "indexPath">, principal: string) =>
  resolve(config.importPath ?? join(config.indexPath, "imports"), folderName(principal));

const inside = (root: string, target: string) => {
  const path = relative(root, target);
  return !path.startsWith("..") && !isAbsolute(path);
};

/**
 * The folder a caller asked to add, resolved inside their own import folder, or `invalid_input`:
 * an absolute path, a path out of it (`..`, a link leading out), or one that is not a folder there.
 * Another scientist's import folder is out of reach: it is outside the caller's.
 */
export const callerFolder = async (
  config: Pick<PrivateRepoConfig, "importPath" | "indexPath">,
  principal: string,
  folder: string,
): Promise<string> => {
  const root = importRoot(config, principal);
  const target = resolve(root, folder);
  const refuse = (why: string) =>
    fail.invalidInput(`"${folder}" ${why}.`, {
      suggestion:
        'Name a folder inside your import folder (the repository\'s imports/<your principal>/), e.g. "papers"; "." is all of it.',
    });
  if (isAbsolute(folder) || !inside(root, target)) throw refuse("is not inside your import folder");
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    throw refuse("does not exist in your import folder");
  }
  if (!inside(await realpath(root), real)) throw refuse("leads out of your import folder");
  if (!(await stat(real)).isDirectory()) throw refuse("is not a folder");
  return real;
};
