import satisfies from "semver/functions/satisfies.js";
import validRange from "semver/ranges/valid.js";

/** The verdict on a plugin's `@quiver/core` range against the host's core version. */
export type CoreRangeVerdict =
  | { readonly ok: true; readonly range: string | undefined }
  | { readonly ok: false; readonly range: string; readonly reason: string };

/**
 * The `@quiver/core` range a plugin built against core `version` declares (VERSIONING.md's
 * compatibility rule): from that minor up to, not including, the next major. Minors are additive
 * even before 1.0, so `0.3.x` plugins run on any later `0.y` core and a break of the contract is a
 * new major.
 *
 * @example
 * coreRangeFor("0.3.2") // ">=0.3.0 <1.0.0"
 * coreRangeFor("2.1.0") // ">=2.1.0 <3.0.0"
 */
export const coreRangeFor = (version: string): string => {
  const [major = 0, minor = 0] = version.split(".").map((n) => Number.parseInt(n, 10));
  return `>=${major}.${minor}.0 <${major + 1}.0.0`;
};

/**
 * Checks that the `@quiver/core` range a plugin declares (dependencies or peerDependencies) accepts
 * the host's core version. `workspace:` ranges (a plugin linked inside a monorepo) are read without
 * the prefix; a bare `workspace:^`/`~`/`*` means "this workspace's core" and always fits.
 *
 * @example
 * checkCoreRange(">=0.1.0 <1.0.0", "0.3.1") // { ok: true, range: ">=0.1.0 <1.0.0" }
 * checkCoreRange("^1.0.0", "0.1.3") // { ok: false, ... }
 */
export const checkCoreRange = (declared: string | undefined, hostCore: string): CoreRangeVerdict => {
  if (declared === undefined) return { ok: true, range: undefined };
  let range = declared.trim();
  if (range.startsWith("workspace:")) {
    range = range.slice("workspace:".length);
    if (range === "^" || range === "~" || range === "*" || range === "") return { ok: true, range: declared };
  }
  if (range.startsWith("npm:") || range.startsWith("file:") || range.startsWith("link:")) {
    return { ok: true, range: declared };
  }
  if (validRange(range) === null) {
    return { ok: false, range: declared, reason: `"${declared}" is not a valid semver range` };
  }
  if (!satisfies(hostCore, range, { includePrerelease: true })) {
    return {
      ok: false,
      range: declared,
      reason: `it needs @quiver/core ${declared}, this host runs @quiver/core ${hostCore}`,
    };
  }
  return { ok: true, range: declared };
};
