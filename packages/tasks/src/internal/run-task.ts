import type { Catalog, SessionContext, StoreDriver, ToolProgress, ToolResult, ToolTask } from "@quiver/core";
import type { StartTaskOptions } from "../task-types.js";
import { isTerminal, recordTtl, type StoredTask, taskKeys, updateRecord } from "./task-store.js";

/** What a takeover re-runs a task's tool with: its input, and its session without the principal. */
export interface TakeoverCall {
  readonly input: unknown;
  /** The session minus its principal: the store holds only the owner's key, never a principal. */
  readonly session: SessionContext;
}

/** Why a run was stopped before its tool answered. */
export type StopReason = "cancel" | "deadline" | "lease" | "shutdown";

/** A task this replica runs. */
export interface LocalRun {
  /** Stops the tool's call (its upstream request is aborted); the first reason wins. */
  readonly stop: (reason: StopReason) => void;
  /** Settles once the final state is written (or given up, when the lease was lost). */
  readonly done: Promise<void>;
}

/** What a run needs from its runner. */
export interface RunContext {
  readonly catalog: Pick<Catalog, "call">;
  readonly store: StoreDriver;
  readonly replica: string;
  readonly leaseMs: number;
  readonly progressIntervalMs: number;
}

const STOP_MESSAGES: Record<StopReason, (r: StoredTask) => string> = {
  cancel: () => "the task was cancelled",
  deadline: (r) => `the task reached its deadline of ${Math.round((r.deadlineAt - r.createdAt) / 1000)} s`,
  lease: () => "this replica lost the task's lease",
  shutdown: () => "the replica running it shut down",
};

/**
 * The status an envelope ends a task in: success and partial complete it, any other status fails it.
 * At its deadline a task completes only with what the tool found so far (a `partial` envelope,
 * `metadata.incomplete`); stopped by a shutdown it fails, whatever it holds.
 */
const endOf = (envelope: ToolResult, stopped: StopReason | undefined, r: StoredTask): Partial<StoredTask> => {
  if (stopped === "deadline" && envelope.status === "partial")
    return { status: "completed", statusMessage: envelope.message };
  if (stopped === "deadline" || stopped === "shutdown") {
    return { status: "failed", statusMessage: `${envelope.message} (${STOP_MESSAGES[stopped](r)})` };
  }
  return envelope.status === "success" || envelope.status === "partial"
    ? { status: "completed", statusMessage: envelope.message }
    : { status: "failed", statusMessage: envelope.message };
};

/**
 * Runs a task's call in the background on this replica: the call gets an AbortSignal that its
 * deadline, a cancel (published or seen in the record) and a lost lease abort; its progress is
 * written to the record at most every `progressIntervalMs`; the lease is renewed every third of
 * its time; the final envelope is stored with the task's time to live, then the record ends. The
 * tool gets `ctx.task`: `resume(point)` stores the point in the record and the call beside it, so a
 * takeover ({@link TakeoverCall}) re-runs the tool with `resumeFrom` set to the point.
 */
export const runTask = (
  ctx: RunContext,
  start: StoredTask,
  input: unknown,
  options: StartTaskOptions,
  session: SessionContext,
): LocalRun => {
  const { store, replica } = ctx;
  const recordKey = taskKeys.record(start.owner, start.id);
  const leaseKey = taskKeys.lease(start.id);
  const controller = new AbortController();
  let stopped: StopReason | undefined;
  const stop = (reason: StopReason) => {
    if (stopped) return;
    stopped = reason;
    controller.abort(new Error(STOP_MESSAGES[reason](start)));
  };

  const deadline = setTimeout(() => stop("deadline"), Math.max(0, start.deadlineAt - Date.now()));
  // The lease, and the polled cancel flag in case a published cancel was missed (a broken channel).
  const renew = setInterval(
    () => {
      void (async () => {
        if (!(await store.compareAndSet(leaseKey, replica, replica, ctx.leaseMs))) stop("lease");
        const now = await store.get(recordKey);
        if (now !== undefined && (JSON.parse(now) as StoredTask).status === "cancelled") stop("cancel");
      })().catch(() => {});
    },
    Math.max(1, Math.floor(ctx.leaseMs / 3)),
  );

  // Progress: the latest value, written at most every progressIntervalMs; writes run one at a time.
  let writes: Promise<unknown> = Promise.resolve();
  let pending: ToolProgress | undefined;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    trailing = undefined;
    const progress = pending;
    if (!progress) return;
    pending = undefined;
    lastWrite = Date.now();
    writes = writes.then(() =>
      updateRecord(store, recordKey, (r) =>
        isTerminal(r) ? undefined : { ...r, progress, updatedAt: Date.now() },
      ).catch(() => {}),
    );
  };
  const onProgress = (p: ToolProgress) => {
    pending = p;
    const wait = lastWrite + ctx.progressIntervalMs - Date.now();
    if (wait <= 0) flush();
    else trailing ??= setTimeout(flush, wait);
  };

  // `ctx.task`: a resume point is stored with the input a takeover needs (never the principal).
  const takeoverKey = taskKeys.takeover(start.owner, start.id);
  const task: ToolTask = {
    id: start.id,
    ...(start.resume ? { resumeFrom: start.resume } : {}),
    resume: async (point) => {
      const { principal: _principal, ...kept } = session;
      const call: TakeoverCall = { input, session: kept };
      await store.set(takeoverKey, JSON.stringify(call), recordTtl(start));
      await updateRecord(store, recordKey, (r) =>
        isTerminal(r) ? undefined : { ...r, resume: { ...point }, updatedAt: Date.now() },
      );
    },
    handedOver: () => stopped === "lease",
  };

  const done = (async () => {
    const envelope = await ctx.catalog.call(start.tool, input, {
      ...options.call,
      session,
      signal: controller.signal,
      onProgress,
      task,
    });
    clearTimeout(deadline);
    clearInterval(renew);
    if (trailing) clearTimeout(trailing);
    flush();
    await writes;
    // A lost lease means another replica may own the task now: write nothing.
    if (stopped === "lease") return;
    await store.delete(takeoverKey);
    const resultKey = taskKeys.result(start.owner, start.id);
    if (stopped !== "cancel") await store.set(resultKey, JSON.stringify(envelope), start.ttlMs);
    const ended = await updateRecord(store, recordKey, (r) =>
      isTerminal(r)
        ? undefined
        : { ...r, ...endOf(envelope, stopped, r), hasResult: stopped !== "cancel", updatedAt: Date.now() },
    );
    // Cancelled (or failed by a sweep) meanwhile: that status stands, and the envelope is not kept.
    if (!ended?.changed) await store.delete(resultKey);
    await store.delete(taskKeys.live(start.id));
    await store.compareAndSet(leaseKey, replica, undefined, 0);
  })();
  return { stop, done: done.catch(() => {}) };
};
