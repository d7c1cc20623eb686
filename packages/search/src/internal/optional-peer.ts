import { SearchError } from "../errors.js";

/**
 * Loads a module that needs one of the package's optional peers (`pg` for PostgreSQL, `latex-utensils`
 * for BibTeX): a missing peer becomes a SearchError naming the package to install, any other failure
 * is rethrown as it is. The peers are optional so that who imports only the ranking or the analyzer
 * (the host's tool finder) installs neither.
 */
export async function withOptionalPeer<T>(peer: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    if (e?.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes(`'${peer}'`)) {
      throw new SearchError(
        "invalid_option",
        `${feature} needs the package "${peer}", an optional peer of @quiver/search: install it beside it (npm install ${peer}).`,
      );
    }
    throw error;
  }
}
