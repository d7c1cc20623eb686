/**
 * Why a collection name is not valid, or undefined: lower-case letters, digits, `.`, `_`, `-`; start with a
 * letter or digit; at most 64.
 */
export const collectionNameProblem = (name: string): string | undefined =>
  /^[a-z0-9][a-z0-9._-]{0,63}$/.test(name)
    ? undefined
    : `"${name}" is not a valid collection name: use 1–64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit.`;

/** Why an owner (principal) is not valid, or undefined. */
export const ownerProblem = (owner: string): string | undefined =>
  owner.trim() === "" || owner.length > 200 || [...owner].some((ch) => ch.charCodeAt(0) < 0x20)
    ? "The owner must be a non-empty principal name of at most 200 printable characters."
    : undefined;

/** A collection reference as a caller writes it: `name` (their own) or `owner/name` (shared with them). */
export type CollectionRef = { readonly owner: string; readonly name: string };

/** Parses a reference for `principal`: the part after the last `/` is the name, the rest the owner. */
export const parseRef = (ref: string, principal: string): CollectionRef => {
  const slash = ref.lastIndexOf("/");
  const name = ref.slice(slash + 1).trim();
  return { owner: slash < 0 ? principal : ref.slice(0, slash), name: name.toLowerCase() };
};

/**
 * How a group is named as a grantee: `group:<name>`, so that no principal's name stands for a group. A caller
 * reads as itself and as each of its groups (from the identity provider's groups claim).
 */
export const GROUP_PREFIX = "group:";
