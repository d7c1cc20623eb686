// Sharing with groups: a group is a grantee named `group:<name>`, and a caller reads as itself and
// as each of its groups (from the identity provider's groups claim).

/** How a group is named as a grantee: `group:<name>`, so that no principal's name stands for a group. */
export const GROUP_PREFIX = "group:";

/** The grantees a caller reads as: the principal and `group:<name>` for each of its groups. */
export const granteesOf = (principal: string, groups: ReadonlyArray<string>): string[] => [
  principal,
  ...groups.map((g) => `${GROUP_PREFIX}${g}`),
];

/** Keeps one row per collection, the principal's own share before a group's (the order of `grantees`). */
export const firstPerCollection = <T extends { readonly id: number; readonly via: string }>(
  rows: ReadonlyArray<T>,
  grantees: ReadonlyArray<string>,
): T[] => {
  const best = new Map<number, T>();
  for (const r of rows) {
    const kept = best.get(r.id);
    if (!kept || grantees.indexOf(r.via) < grantees.indexOf(kept.via)) best.set(r.id, r);
  }
  return rows.filter((r) => best.get(r.id) === r);
};
