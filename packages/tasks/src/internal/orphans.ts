import type { StoreDriver } from "@quiver/core";
import type { TaskRecord } from "../task-types.js";
import { readRecord, type StoredTask, taskKeys, updateRecord } from "./task-store.js";

/** The message of a task whose replica stopped (its lease ran out) and that nobody took over. */
export const ORPHAN_MESSAGE =
  "the replica running it stopped before it finished (its lease ran out); call the tool again";

/** What deciding on an orphan needs. */
export interface OrphanContext {
  readonly store: StoreDriver;
  /** Whether this replica runs the task itself (then it is not an orphan, whatever the store says). */
  readonly runsHere: (id: string) => boolean;
  /** The takeover hook: true when it resumed the task (see `TaskRunnerOptions.onOrphan`). */
  readonly onOrphan?: ((task: TaskRecord) => boolean | Promise<boolean>) | undefined;
  /** Resumes a task whose tool stored a resume point (see takeover.ts); undefined: it cannot. */
  readonly takeOver?: (task: StoredTask) => Promise<StoredTask | undefined>;
}

/**
 * The record as it stands once checked for an orphan: a `working` task whose lease is gone and
 * that no replica runs is taken over when its tool stored a resume point, else offered to the
 * `onOrphan` hook, and else marked `failed` with {@link ORPHAN_MESSAGE} (one compare-and-set, so of
 * two replicas that notice it only one writes).
 */
export const settleOrphan = async (ctx: OrphanContext, record: StoredTask): Promise<StoredTask> => {
  if (record.status !== "working" || ctx.runsHere(record.id)) return record;
  if ((await ctx.store.get(taskKeys.lease(record.id))) !== undefined) return record;
  const key = taskKeys.record(record.owner, record.id);
  const resumed = ctx.takeOver ? await ctx.takeOver(record) : undefined;
  if (resumed) return resumed;
  if (ctx.onOrphan && (await ctx.onOrphan(record)))
    return (await readRecord(ctx.store, key))?.record ?? record;
  const ended = await updateRecord(ctx.store, key, (r) =>
    r.status !== "working"
      ? undefined
      : { ...r, status: "failed", statusMessage: ORPHAN_MESSAGE, hasResult: false, updatedAt: Date.now() },
  );
  await ctx.store.delete(taskKeys.live(record.id));
  await ctx.store.delete(taskKeys.takeover(record.owner, record.id));
  return ended?.record ?? record;
};

/** Checks every working task in the store (their live markers) for an orphan; answers how many it ended. */
export const sweepOrphans = async (ctx: OrphanContext): Promise<number> => {
  let ended = 0;
  for (const liveKey of await ctx.store.keys(taskKeys.allLive)) {
    const recordKey = await ctx.store.get(liveKey);
    const read = recordKey === undefined ? undefined : await readRecord(ctx.store, recordKey);
    if (!read) {
      // The record is gone (its time to live ran out): the marker has nothing left to guard.
      await ctx.store.delete(liveKey);
      continue;
    }
    if (read.record.status !== "working" && read.record.status !== "input_required") {
      // Ended without removing its marker (cancelled while its replica was gone): nothing to guard.
      await ctx.store.delete(liveKey);
      continue;
    }
    const after = await settleOrphan(ctx, read.record);
    if (after.status === "failed" && read.record.status === "working") ended++;
  }
  return ended;
};
