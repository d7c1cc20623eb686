import { closestMatches, fail, type Caller as ToolCaller } from "@quiver/core";
import { type CollectionRef, collectionNameProblem, formatRef, GROUP_PREFIX, parseRef } from "./names.js";
import type { ReadableRow, Repository } from "./repository.js";

/** A collection the caller may read, with how they name it (and the grantee it is read as: `via`). */
export type Readable = ReadableRow & { readonly ref: string };

/** Who calls (the tool context's `ctx.caller`), known to have a principal. */
export type Caller = Pick<ToolCaller, "groups" | "clientId"> & { readonly principal: string };

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
  await repo.audit({
    principal: named ? principal : null,
    action,
    target: null,
    outcome: "denied",
    detail: named ? "a principal named like a group" : "no principal",
    clientId: clientId ?? null,
  });
  throw fail.accessDenied(
    named
      ? `The principal "${principal}" is named like a group grantee, which no caller may be.`
      : `${action === "search" ? "private_repo_search" : "This tool"} needs an authenticated caller: the call carried no principal.`,
    { suggestion: "Connect with a token that the host maps to a scientist (principal)." },
  );
};

/** Every collection the caller may read (own, shared with them or a group of theirs), named as they see it. */
export const readableBy = async (repo: Repository, caller: Caller): Promise<Readable[]> =>
  (await repo.readable(caller.principal, caller.groups)).map((c) => ({
    ...c,
    ref: formatRef(c, caller.principal),
  }));

/** Up to three of the caller's readable references closest to `ref` (suggestions never name anything else). */
const closest = (ref: string, readable: ReadonlyArray<Readable>): string[] =>
  closestMatches(
    readable.map((r) => r.ref).sort((a, b) => a.localeCompare(b)),
    ref,
    { limit: 3, maxDistance: Math.max(2, Math.floor(ref.length / 3)) },
  );

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
  const readable = await readableBy(repo, caller);
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
  if (denied.length > 0) {
    const names = denied.map((d) => `${d.owner}/${d.name}`);
    const known = await Promise.all(denied.map((d) => repo.find(d.owner, d.name)));
    await repo.audit({
      principal,
      action,
      target: names.join(", "),
      outcome: "denied",
      detail: names
        .map((d, i) => `${d}: ${known[i] ? "exists, not shared" : "no such collection"}`)
        .join("; "),
      clientId: caller.clientId ?? null,
    });
    throw fail.accessDenied(
      `You have no access to ${names.map((d) => `"${d}"`).join(", ")}: no collection of that name is shared with you.`,
      {
        suggestion:
          readable.length > 0
            ? `Collections you can search: ${readable.map((r) => r.ref).join(", ")}. Ask the owner to share a collection with you.`
            : "You have no collections yet and none are shared with you. Ask the owner to share a collection with you.",
      },
    );
  }
  if (unknownOwn.length > 0) {
    const first = unknownOwn[0]!;
    const near = closest(first, readable);
    const invalid = collectionNameProblem(first);
    throw fail.invalidInput(
      `You have no collection ${unknownOwn.map((n) => `"${n}"`).join(", ")}.${invalid ? ` ${invalid}` : ""}`,
      {
        suggestion:
          near.length > 0
            ? `Did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
            : readable.length > 0
              ? `Your collections: ${readable.map((r) => r.ref).join(", ")}.`
              : "You have no collections yet: add documents with `quiver private-repo add`.",
      },
    );
  }
  return [...chosen.values()];
};
