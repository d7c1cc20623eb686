import { type Caller as AnyCaller, closestMatches, fail, type SlotContext, ToolFailure } from "@quiver/core";
import type { PrivateRepoConfig, RepoResources } from "../config.js";
import { type CollectionRef, collectionNameProblem, GROUP_PREFIX, parseRef } from "./names.js";
import type { Repository } from "./repository.js";

/** Who calls (the tool context's `ctx.caller`), known to have a principal. */
export type Caller = AnyCaller & { readonly principal: string };

type Ctx = Pick<SlotContext<PrivateRepoConfig, RepoResources>, "caller" | "resources">;

/** What needs a caller, by action, in the message to an anonymous one. */
const WHO_NEEDS: Record<string, string> = {
  search: "private_repo_search",
  read: "Reading a repository document",
};

/** The caller's principal, unless anonymous or named like a group grantee (`group:…`). */
const principalOf = ({ principal: p }: AnyCaller) =>
  p !== undefined && p.trim() !== "" && !p.startsWith(GROUP_PREFIX) ? p : undefined;

/**
 * The repository and the caller, or `access_denied` (logged) for an anonymous call, or for a principal
 * named like a group grantee (`group:…`), which would otherwise read what is shared with that group.
 */
export const requireCaller = async ({ caller, resources }: Ctx, action: string) => {
  const repo = resources.repository();
  const principal = principalOf(caller);
  if (principal) return { repo, caller: { ...caller, principal } };
  const group = caller.principal?.startsWith(GROUP_PREFIX) ? caller.principal : undefined;
  const detail = group ? "a principal named like a group" : "no principal";
  await repo.audit({ ...caller, principal: group ?? null, action, target: null, outcome: "denied", detail });
  throw fail.accessDenied(
    group
      ? `The principal "${group}" is named like a group grantee, which no caller may be.`
      : `${WHO_NEEDS[action] ?? "This tool"} needs an authenticated caller: the call carried no principal.`,
    { suggestion: "Connect with a token that the host maps to a scientist (principal)." },
  );
};

/** Logs a denied attempt on other owners' collections, saying (in the log only) whether each exists. */
const auditDenied = async (repo: Repository, caller: Caller, action: string, refs: CollectionRef[]) => {
  const names = refs.map((d) => `${d.owner}/${d.name}`);
  const known = await Promise.all(refs.map((d) => repo.find(d.owner, d.name)));
  const detail = names
    .map((d, i) => `${d}: ${known[i] ? "exists, not shared" : "no such collection"}`)
    .join("; ");
  await repo.audit({ ...caller, action, target: names.join(", "), outcome: "denied", detail });
  return names;
};

const quoted = (names: ReadonlyArray<string>, or = ", ") => names.map((n) => `"${n}"`).join(or);

/**
 * Resolves the collections a caller asked to search. Their own names that do not exist are `invalid_input` (the
 * namespace is theirs). Any other owner's collection that is not shared with them is `access_denied`, with the
 * same message whether it exists or not, and the attempt is logged.
 */
export const resolveScope = async (repo: Repository, caller: Caller, requested?: ReadonlyArray<string>) => {
  const readable = await repo.readable(caller.principal, caller.groups);
  if (requested === undefined) return readable;
  const asked = requested.map((raw) => parseRef(raw.trim(), caller.principal));
  const find = (ref: CollectionRef) => readable.find((r) => r.owner === ref.owner && r.name === ref.name);
  const missing = asked.filter((ref) => !find(ref));
  const denied = missing.filter((ref) => ref.owner !== caller.principal);
  const unknownOwn = missing.filter((ref) => ref.owner === caller.principal).map((ref) => ref.name);
  const refs = readable.map((r) => r.ref);
  if (denied.length > 0) {
    const names = await auditDenied(repo, caller, "search", denied);
    const yours =
      refs.length > 0
        ? `Collections you can search: ${refs.join(", ")}.`
        : "You have no collections yet and none are shared with you.";
    throw fail.accessDenied(
      `You have no access to ${quoted(names)}: no collection of that name is shared with you.`,
      { suggestion: `${yours} Ask the owner to share a collection with you.` },
    );
  }
  if (unknownOwn.length > 0) {
    const first = unknownOwn[0]!;
    // Suggestions name only what the caller can read.
    const maxDistance = Math.max(2, Math.floor(first.length / 3));
    const sorted = refs.toSorted((a, b) => a.localeCompare(b));
    const near = closestMatches(sorted, first, { limit: 3, maxDistance });
    const invalid = collectionNameProblem(first);
    throw fail.invalidInput(`You have no collection ${quoted(unknownOwn)}.${invalid ? ` ${invalid}` : ""}`, {
      suggestion:
        near.length > 0
          ? `Did you mean ${quoted(near, " or ")}?`
          : refs.length > 0
            ? `Your collections: ${refs.join(", ")}.`
            : "You have no collections yet: add documents with `quiver private-repo add`.",
    });
  }
  return [...new Set(asked.map(find))].filter((r) => r !== undefined);
};

/**
 * The collection `owner/name` as the caller of a resource read may read it (their own, or shared with them or
 * one of their groups), with its index opened as the grantee that gives access; undefined otherwise. Another
 * owner's collection that is not shared is logged as a denied `read` and is answered as absent, whether it
 * exists or not, so that a read learns nothing of it. An anonymous caller is `access_denied`.
 */
export const readableCollection = async (ctx: Ctx, owner: string, name: string) => {
  const { repo, caller } = await requireCaller(ctx, "read");
  const readable = await repo.readable(caller.principal, caller.groups);
  const collection = readable.find((r) => r.owner === owner && r.name === name);
  if (collection) return { collection, index: await repo.index(collection, collection.via) };
  if (owner !== caller.principal) await auditDenied(repo, caller, "read", [{ owner, name }]);
  return undefined;
};

/** The owners and names of the collections the caller may read (for completions); none when anonymous. */
export const readableNames = async (ctx: Ctx) => {
  const principal = principalOf(ctx.caller);
  return principal ? ctx.resources.repository().readable(principal, ctx.caller.groups) : [];
};

/** The failure for a repository database that cannot be reached: retryable. */
export const databaseUnavailable = () =>
  fail.unavailable("The repository's database is unavailable; try again shortly.", {
    retryable: true,
    suggestion:
      "Call again in a little while; the operator should check that PostgreSQL (DATABASE_URL) is running.",
  });

/**
 * Runs work on the collections' indexes and turns a search-package error into a tool failure: bad
 * options are invalid input, an unreachable database is `unavailable` (retryable); nothing else leaks
 * details; a tool failure thrown by the work (a refused caller) passes as it is. @quiver/search's error class
 * is loaded on failure only: listing or answering needs none.
 */
export const readingIndexes = <T>(work: () => Promise<T>): Promise<T> =>
  work().catch(async (e: unknown) => {
    if (ToolFailure.isInstance(e)) throw e;
    const { SearchError } = await import("@quiver/search/errors");
    if (SearchError.isInstance(e) && e.code === "invalid_option") {
      const message = e.message.replace(/\bdateFrom\b/, "date_from").replace(/\bdateTo\b/, "date_to");
      throw fail.invalidInput(message, { suggestion: "Correct the filter and call again." });
    }
    if (SearchError.isInstance(e) && e.code === "unavailable") throw databaseUnavailable();
    throw fail.internal(
      "The repository index could not be read; ask the operator to check the repository folder.",
      { cause: e, retryable: false },
    );
  });
