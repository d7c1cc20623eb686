import type { SlotContext } from "@quiver/core";
import type { PrivateRepoConfig } from "../config.js";
import type { RepoResources } from "../setup.js";
import { requireCaller } from "./access.js";
import { GROUP_PREFIX } from "./names.js";
import type { Readable } from "./repository.js";

/**
 * The collection `owner/name` as the caller of a resource read may read it (their own, or shared with them or
 * one of their groups), with its index opened as the grantee that gives access; undefined otherwise. Another
 * owner's collection that is not shared is logged as a denied `read` and is answered as absent, whether it
 * exists or not, so that a read learns nothing of it. An anonymous caller is `access_denied`.
 */
export const readableCollection = async (
  ctx: SlotContext<PrivateRepoConfig, RepoResources>,
  owner: string,
  name: string,
) => {
  const repo = ctx.resources.repository();
  const caller = await requireCaller(repo, ctx.caller, "read");
  const readable = await repo.readable(caller.principal, caller.groups);
  const collection: Readable | undefined = readable.find((r) => r.owner === owner && r.name === name);
  if (collection) return { collection, index: await repo.index(collection, collection.via) };
  if (owner !== caller.principal) {
    const known = await repo.find(owner, name);
    await repo.audit({
      principal: caller.principal,
      action: "read",
      target: `${owner}/${name}`,
      outcome: "denied",
      detail: `${owner}/${name}: ${known ? "exists, not shared" : "no such collection"}`,
      clientId: caller.clientId,
    });
  }
  return undefined;
};

/** The owners and names of the collections the caller may read (for completions); none when anonymous. */
export const readableNames = async (ctx: SlotContext<PrivateRepoConfig, RepoResources>) => {
  const { principal, groups } = ctx.caller;
  if (principal === undefined || principal.trim() === "" || principal.startsWith(GROUP_PREFIX)) return [];
  return ctx.resources.repository().readable(principal, groups);
};
