import { closestMatches, fail, type Caller as ToolCaller } from "@quiver/core";
import { type CollectionRef, collectionNameProblem, GROUP_PREFIX, parseRef } from "./names.js";
import type { Readable, Repository } from "./repository.js";

/** Who calls (the tool context's `ctx.caller`), known to have a principal. */
export type Caller = Pick<ToolCaller, "groups" | "clientId"> & { readonly principal: string };

/** What needs a caller, by action, in the message to an anonymous one. */
const WHO_NEEDS: Readonly<Record<string, string>> = {
  search: "private_repo_search",
  read: "Reading a repository document",
};

/**
 * The caller, or `access_denied` (logged) for an anonymous call, or for a principal named like a
 * group grantee (`group:…`), which would otherwise read what is shared with that group.
 */
export const requireCaller = async (
  repo: Repository,
  { principal, groups, clientId }: Pick<ToolCaller, "principal" | "groups" | "clientId">,
  action: string,
): Promise<Caller> => {
  if (principal !== undefined && principal.trim() !== "" && !principal.startsWith(GROUP_PREFIX))
    return { principal, groups, clientId };
  const named = principal?.startsWith(GROUP_PREFIX) === true;
  const detail = named ? "a principal named like a group" : "no principal";
  const who = named ? principal! : null;
  await repo.audit({ principal: who, action, target: null, outcome: "denied", detail, clientId });
  throw fail.accessDenied(
    named
      ? `The principal "${principal}" is named like a group grantee, which no caller may be.`
      : `${WHO_NEEDS[action] ?? "This tool"} needs an authenticated caller: the call carried no principal.`,
    { suggestion: "Connect with a token that the host maps to a scientist (principal)." },
  );
};

/**
 * Resolves the collections a caller asked for. Their own names that do not exist are `invalid_input` (the
 * namespace is theirs). Any other owner's collection that is not shared with them is `access_denied`, with the
 * same message whether it exists or not, and the attempt is logged.
 */
export const resolveScope = async (
  repo: Repository,
  caller: Caller,
  requested: ReadonlyArray<string> | undefined,
  action: string,
): Promise<Readable[]> => {
  const { principal } = caller;
  const readable = await repo.readable(principal, caller.groups);
  if (requested === undefined) return readable;
  const chosen = new Map<number, Readable>();
  const denied: CollectionRef[] = [];
  const unknownOwn: string[] = [];
  for (const raw of requested) {
    const ref = parseRef(raw.trim(), principal);
    const hit = readable.find((r) => r.owner === ref.owner && r.name === ref.name);
    if (hit) chosen.set(hit.id, hit);
    else if (ref.owner === principal) unknownOwn.push(ref.name);
    else denied.push(ref);
  }
  const refs = readable.map((r) => r.ref);
  const quoted = (names: ReadonlyArray<string>, or = ", ") => names.map((n) => `"${n}"`).join(or);
  if (denied.length > 0) {
    const names = denied.map((d) => `${d.owner}/${d.name}`);
    const known = await Promise.all(denied.map((d) => repo.find(d.owner, d.name)));
    const why = names.map((d, i) => `${d}: ${known[i] ? "exists, not shared" : "no such collection"}`);
    const [target, detail] = [names.join(", "), why.join("; ")];
    await repo.audit({ principal, action, target, outcome: "denied", detail, clientId: caller.clientId });
    const ask = "Ask the owner to share a collection with you.";
    throw fail.accessDenied(
      `You have no access to ${quoted(names)}: no collection of that name is shared with you.`,
      {
        suggestion:
          refs.length > 0
            ? `Collections you can search: ${refs.join(", ")}. ${ask}`
            : `You have no collections yet and none are shared with you. ${ask}`,
      },
    );
  }
  if (unknownOwn.length > 0) {
    const first = unknownOwn[0]!;
    // Suggestions name only what the caller can read.
    const near = closestMatches(
      refs.toSorted((a, b) => a.localeCompare(b)),
      first,
      {
        limit: 3,
        maxDistance: Math.max(2, Math.floor(first.length / 3)),
      },
    );
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
  return [...chosen.values()];
};
