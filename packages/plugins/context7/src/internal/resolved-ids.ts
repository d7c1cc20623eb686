import type { Caller } from "@quiver/core";
import { LRUCache } from "lru-cache";

/** Callers whose resolved ids are kept, least recently active dropped first. */
const MAX_CALLERS = 1_000;
/** Ids kept per caller, newest first. */
const MAX_IDS = 50;

/**
 * The Context7 library ids each caller has resolved or read documentation of, newest first, so a
 * prompt's `library_id` completes from ids that caller already found. Kept in memory per principal
 * (anonymous callers share one list), bounded: at most 50 ids for each of 1,000 callers. One per
 * registration of the plugin.
 */
export const resolvedIds = () => {
  const byCaller = new LRUCache<string, ReadonlyArray<string>>({ max: MAX_CALLERS });
  const key = (caller: Caller) => caller.principal ?? "";
  return {
    /** Puts `ids` first in the caller's list (the first of them first), each once. */
    remember: (caller: Caller, ids: ReadonlyArray<string>): void => {
      if (ids.length === 0) return;
      const kept = byCaller.get(key(caller)) ?? [];
      const fresh = [...new Set(ids)];
      byCaller.set(key(caller), [...fresh, ...kept.filter((id) => !fresh.includes(id))].slice(0, MAX_IDS));
    },
    /** The caller's ids, newest first. */
    of: (caller: Caller): ReadonlyArray<string> => byCaller.get(key(caller)) ?? [],
  };
};

/** What {@link resolvedIds} keeps: `remember(caller, ids)` and `of(caller)`. */
export type ResolvedIds = ReturnType<typeof resolvedIds>;

/**
 * The ids that match what was typed: starting with it (`/vercel/n`), or with any of their path parts
 * starting with it (`next` finds `/vercel/next.js`), case-insensitively, in the list's order.
 */
export const idsMatching = (ids: ReadonlyArray<string>, typed: string): string[] => {
  const t = typed.toLowerCase();
  return ids.filter((id) => {
    const lower = id.toLowerCase();
    return lower.startsWith(t) || lower.split("/").some((part) => part.startsWith(t));
  });
};
