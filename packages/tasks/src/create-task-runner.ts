import { randomBytes } from "node:crypto";
import type { Catalog, SessionContext, StoreDriver } from "@quiver/core";
import { settleOrphan, sweepOrphans } from "./internal/orphans.js";
import { type LocalRun, runTask } from "./internal/run-task.js";
import { takeOver } from "./internal/takeover.js";
import { listTasks, taskResult } from "./internal/task-reads.js";
import {
  CANCEL_CHANNEL,
  ownerKey,
  readRecord,
  recordTtl,
  type StoredTask,
  taskKeys,
  toInfo,
  updateRecord,
} from "./internal/task-store.js";
import type {
  StartTaskOptions,
  TaskAnswer,
  TaskInfo,
  TaskPage,
  TaskRecord,
  TaskResult,
} from "./task-types.js";

/** Options of {@link createTaskRunner}. */
export interface TaskRunnerOptions {
  /** Runs a task's call: a catalog, or anything with its `call` (a host that runs its own tools beside it). */
  readonly catalog: Pick<Catalog, "call">;
  /** Where tasks, leases and results live: the catalog's store (a `redisStore` shared by replicas). */
  readonly store: StoreDriver;
  /** This replica's name in leases (default: random). */
  readonly replicaId?: string;
  /** How long a finished task and its result are kept, in milliseconds (default 1 hour). */
  readonly ttlMs?: number;
  /** The longest time to live a caller may ask for (default 24 hours). */
  readonly maxTtlMs?: number;
  /** How long a task may run before it is stopped and fails (default 300 s, the co-scientist's `timeout_seconds`). */
  readonly deadlineMs?: number;
  /** A tool's own deadline in milliseconds, over `deadlineMs` (undefined: the default); a request's `deadlineMs` wins. */
  readonly toolDeadlineMs?: (tool: string) => number | undefined;
  /** The poll interval suggested to callers (default 1 s). */
  readonly pollIntervalMs?: number;
  /** The running replica's lease; renewed every third of it (default 30 s). */
  readonly leaseMs?: number;
  /** How often to look for tasks whose replica stopped (default `leaseMs`; 0: only when a task is read). */
  readonly sweepIntervalMs?: number;
  /** The shortest time between two progress writes of one task (default 1 s). */
  readonly progressIntervalMs?: number;
  /**
   * Called with a `working` task whose replica stopped and that could not be taken over (its tool
   * stored no resume point with `ctx.task.resume`), before it is marked failed; answer true once you
   * dealt with it. Default: none, so such a task fails with a message saying why.
   */
  readonly onOrphan?: (task: TaskRecord) => boolean | Promise<boolean>;
}

/** Tasks over a catalog: start a call in the background, then poll, wait for or cancel it. */
export interface TaskRunner {
  /** This replica's name in leases. */
  readonly replicaId: string;
  /** Writes the task (status `working`) to the store, starts its call in the background, and answers it. */
  start(name: string, input: unknown, options?: StartTaskOptions): Promise<TaskInfo>;
  /** The caller's task; `not_found` for an unknown id or another principal's task. */
  get(id: string, principal?: string): Promise<TaskAnswer>;
  /** The task's final envelope; with `wait`, once it ends (or `signal` aborts: `working`). */
  result(
    id: string,
    principal?: string,
    options?: { readonly wait?: boolean; readonly signal?: AbortSignal },
  ): Promise<TaskResult>;
  /** The caller's tasks, newest first; nothing without a principal (the ids are the only guard there). */
  list(
    principal?: string,
    options?: { readonly cursor?: string; readonly limit?: number },
  ): Promise<TaskPage>;
  /** Cancels the caller's working task on whichever replica runs it; `finished` once it ended. */
  cancel(id: string, principal?: string): Promise<TaskAnswer>;
  /** Takes over or ends every working task whose replica stopped (see `onOrphan`); answers how many it ended. */
  sweep(): Promise<number>;
  /** Stops the sweep and this replica's runs (they fail: "the replica running it shut down"); `start` then throws. */
  close(): Promise<void>;
}

const notFound = (id: string) => ({
  ok: false as const,
  code: "not_found" as const,
  message: `No task ${id} of yours: it never existed, belongs to someone else, or expired.`,
});

/**
 * A task runner over a catalog and a store. A task's record is written before `start` answers; its
 * call runs on this replica with every policy, under an AbortSignal its deadline aborts. A cancel on
 * any replica writes `cancelled` and publishes on the store, and the running replica aborts the
 * call (it also polls the record each lease renewal). A task whose replica stopped is noticed once
 * its lease runs out, when it is read or by the periodic sweep: taken over by this replica when its
 * tool stored a resume point (`ctx.task.resume`), else failed. Records are keyed by owner, so
 * another principal finds nothing.
 *
 * @example
 * import { createCatalog, memoryDriver } from "@quiver/core"
 *
 * const store = memoryDriver()
 * const catalog = createCatalog({ store })
 * const runner = createTaskRunner({ catalog, store });
 * const task = await runner.start("fda_search_drugs", { query: "aspirin" }, { principal: "alice" });
 * const answer = await runner.result(task.id, "alice", { wait: true });
 */
export const createTaskRunner = (options: TaskRunnerOptions): TaskRunner => {
  const { catalog, store } = options;
  const replica = options.replicaId ?? randomBytes(8).toString("hex");
  const ttlDefault = options.ttlMs ?? 60 * 60 * 1000;
  const maxTtl = options.maxTtlMs ?? 24 * 60 * 60 * 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const local = new Map<string, LocalRun>();
  let closed = false;
  const ctx = {
    catalog,
    store,
    replica,
    leaseMs,
    progressIntervalMs: options.progressIntervalMs ?? 1_000,
  };
  /** Runs a task on this replica until its final state is written. */
  const launch = (
    record: StoredTask,
    input: unknown,
    startOptions: StartTaskOptions,
    session: SessionContext,
  ) => {
    const run = runTask(ctx, record, input, startOptions, session);
    local.set(record.id, run);
    void run.done.finally(() => local.delete(record.id));
  };
  const takeover = {
    store,
    replica,
    leaseMs,
    open: () => !closed,
    launch: (record: StoredTask, call: { input: unknown; session: SessionContext }) =>
      launch(record, call.input, {}, call.session),
  };
  const orphans = {
    store,
    runsHere: (id: string) => local.has(id),
    onOrphan: options.onOrphan,
    takeOver: (record: StoredTask) => takeOver(takeover, record),
  };
  // One subscription for every task: a cancel names its task id.
  const subscribed = Promise.resolve(store.subscribe(CANCEL_CHANNEL, (id) => local.get(id)?.stop("cancel")));
  const sweepMs = options.sweepIntervalMs ?? leaseMs;
  const sweeper =
    sweepMs > 0 ? setInterval(() => void sweepOrphans(orphans).catch(() => {}), sweepMs) : undefined;
  sweeper?.unref();

  /** The caller's record, checked for an orphan. */
  const find = async (id: string, principal: string | undefined): Promise<StoredTask | undefined> => {
    const read = await readRecord(store, taskKeys.record(ownerKey(store, principal), id));
    return read ? settleOrphan(orphans, read.record) : undefined;
  };
  const positive = (value: number | undefined, fallback: number) =>
    value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;

  return {
    replicaId: replica,
    async start(name, input, startOptions = {}) {
      if (closed) throw new Error("This task runner is closed: it starts no more tasks.");
      await subscribed;
      const principal = startOptions.principal ?? startOptions.session?.principal;
      const now = Date.now();
      const record: StoredTask = {
        id: randomBytes(32).toString("base64url"),
        tool: name,
        status: "working",
        createdAt: now,
        updatedAt: now,
        ttlMs: Math.min(positive(startOptions.ttlMs, ttlDefault), maxTtl),
        pollIntervalMs: positive(startOptions.pollIntervalMs, options.pollIntervalMs ?? 1_000),
        deadlineAt:
          now +
          positive(
            startOptions.deadlineMs,
            positive(options.toolDeadlineMs?.(name), options.deadlineMs ?? 300_000),
          ),
        owner: ownerKey(store, principal),
        replica,
      };
      // Lease first, then the record, then the live marker: no reader sees a record without its lease.
      await store.compareAndSet(taskKeys.lease(record.id), undefined, replica, leaseMs);
      const recordKey = taskKeys.record(record.owner, record.id);
      await store.set(recordKey, JSON.stringify(record), recordTtl(record, now));
      await store.set(taskKeys.live(record.id), recordKey, record.deadlineAt - now + leaseMs);
      const session = { ...startOptions.session, ...(principal !== undefined ? { principal } : {}) };
      launch(record, input, startOptions, session);
      return toInfo(record);
    },
    async get(id, principal) {
      const record = await find(id, principal);
      return record ? { ok: true, task: toInfo(record) } : notFound(id);
    },
    async result(id, principal, resultOptions = {}) {
      return taskResult(
        { store, find: (i) => find(i, principal), running: (i) => local.get(i)?.done },
        id,
        resultOptions,
      ) as Promise<TaskResult>;
    },
    async list(principal, listOptions = {}) {
      const owner = ownerKey(store, principal);
      if (owner === "") return { tasks: [] };
      return listTasks(store, owner, (r) => settleOrphan(orphans, r), listOptions);
    },
    async cancel(id, principal) {
      const key = taskKeys.record(ownerKey(store, principal), id);
      const updated = await updateRecord(store, key, (r) =>
        r.status !== "working" && r.status !== "input_required"
          ? undefined
          : { ...r, status: "cancelled", statusMessage: "cancelled by its caller", updatedAt: Date.now() },
      );
      if (!updated) return notFound(id);
      const task = toInfo(updated.record);
      if (!updated.changed) {
        return { ok: false, code: "finished", message: `Task ${id} already ended (${task.status}).`, task };
      }
      local.get(id)?.stop("cancel");
      await store.publish(CANCEL_CHANNEL, id);
      return { ok: true, task };
    },
    sweep: () => sweepOrphans(orphans),
    async close() {
      closed = true;
      if (sweeper) clearInterval(sweeper);
      const runs = [...local.values()];
      for (const run of runs) run.stop("shutdown");
      await Promise.all(runs.map((r) => r.done));
      (await subscribed)();
    },
  };
};
