import type { StoreDriver } from "@quiver/core";
import type { TakeoverCall } from "./run-task.js";
import { type StoredTask, taskKeys, updateRecord } from "./task-store.js";

/** What taking a task over needs from its runner. */
export interface TakeoverContext {
  readonly store: StoreDriver;
  readonly replica: string;
  readonly leaseMs: number;
  /** False once the runner is closed: a closing replica takes nothing over (and fails nothing it could). */
  readonly open: () => boolean;
  /** Runs the task on this replica, as a start does, from the stored call. */
  readonly launch: (record: StoredTask, call: TakeoverCall) => void;
}

/**
 * Takes over a `working` task whose replica stopped and whose tool stored a resume point: claims its
 * lease (compare-and-set, so of two replicas only one wins), makes itself the record's replica, and
 * re-runs the tool with the stored input, where `ctx.task.resumeFrom` is the point. Answers the
 * record as it now stands when the task is taken care of (taken over here, claimed by another
 * replica, or ended meanwhile), and undefined when it cannot be resumed (no point, or its call is
 * gone), so the caller fails it.
 */
export const takeOver = async (ctx: TakeoverContext, record: StoredTask): Promise<StoredTask | undefined> => {
  if (!record.resume) return undefined;
  if (!ctx.open()) return record;
  const { store, replica } = ctx;
  const leaseKey = taskKeys.lease(record.id);
  if (!(await store.compareAndSet(leaseKey, undefined, replica, ctx.leaseMs))) return record;
  const release = () => store.compareAndSet(leaseKey, replica, undefined, 0);
  const saved = await store.get(taskKeys.takeover(record.owner, record.id));
  if (saved === undefined) {
    await release();
    return undefined;
  }
  const key = taskKeys.record(record.owner, record.id);
  const claimed = await updateRecord(store, key, (r) =>
    r.status !== "working" ? undefined : { ...r, replica, updatedAt: Date.now() },
  );
  if (!claimed?.changed) {
    await release();
    return claimed?.record ?? record;
  }
  const now = Date.now();
  await store.set(taskKeys.live(record.id), key, Math.max(0, claimed.record.deadlineAt - now) + ctx.leaseMs);
  ctx.launch(claimed.record, JSON.parse(saved) as TakeoverCall);
  return claimed.record;
};
