import type { StoreDriver, ToolResult } from "@quiver/core";
import type { TaskPage, TaskResult } from "../task-types.js";
import { isTerminal, readRecord, type StoredTask, taskKeys, toInfo } from "./task-store.js";

/** What answering a result needs. */
export interface ResultContext {
  readonly store: StoreDriver;
  /** The caller's record (checked for an orphan), if any. */
  readonly find: (id: string) => Promise<StoredTask | undefined>;
  /** When this replica runs the task: settles once it ended. */
  readonly running: (id: string) => Promise<void> | undefined;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * A task's final envelope: with `wait`, polls the record (at its poll interval, or at once when
 * this replica runs it and it ends) until the task ends or `signal` aborts.
 */
export const taskResult = async (
  ctx: ResultContext,
  id: string,
  options: { readonly wait?: boolean; readonly signal?: AbortSignal },
): Promise<TaskResult> => {
  for (;;) {
    const record = await ctx.find(id);
    if (!record) {
      return {
        ok: false,
        code: "not_found",
        message: `No task ${id} of yours: it never existed, belongs to someone else, or expired.`,
      };
    }
    const task = toInfo(record);
    if (!isTerminal(record)) {
      if (!options.wait || options.signal?.aborted) {
        return { ok: false, code: "working", message: `Task ${id} is still ${record.status}.`, task };
      }
      const running = ctx.running(id);
      await (running
        ? Promise.race([running, pause(record.pollIntervalMs, options.signal)])
        : pause(record.pollIntervalMs, options.signal));
      continue;
    }
    if (record.status === "cancelled") {
      return { ok: false, code: "cancelled", message: `Task ${id} was cancelled; it has no result.`, task };
    }
    if (!record.hasResult) {
      return {
        ok: false,
        code: "failed",
        message: `Task ${id} failed: ${record.statusMessage ?? "no result"}.`,
        task,
      };
    }
    const raw = await ctx.store.get(taskKeys.result(record.owner, id));
    if (raw === undefined) {
      const at = new Date(record.updatedAt + record.ttlMs).toISOString();
      return {
        ok: false,
        code: "expired",
        message: `The result of task ${id} expired at ${at} (it was kept for ${Math.round(record.ttlMs / 1000)} s); call the tool again.`,
        task,
      };
    }
    return { ok: true, task, envelope: JSON.parse(raw) as ToolResult };
  }
};

/** Decodes a cursor (an offset) or answers 0. */
const offsetOf = (cursor: string | undefined) => {
  const n = cursor === undefined ? 0 : Number.parseInt(Buffer.from(cursor, "base64url").toString(), 10);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};

/** One page of an owner's tasks, newest first, without those whose time to live ran out. */
export const listTasks = async (
  store: StoreDriver,
  owner: string,
  settle: (r: StoredTask) => Promise<StoredTask>,
  options: { readonly cursor?: string; readonly limit?: number },
): Promise<TaskPage> => {
  const now = Date.now();
  const records: StoredTask[] = [];
  for (const key of await store.keys(taskKeys.owned(owner))) {
    const read = await readRecord(store, key);
    if (!read || read.record.owner !== owner) continue;
    const record = await settle(read.record);
    if (isTerminal(record) && record.updatedAt + record.ttlMs < now) continue;
    records.push(record);
  }
  records.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  const offset = offsetOf(options.cursor);
  const limit = Math.max(1, Math.min(options.limit ?? 100, 1_000));
  const page = records.slice(offset, offset + limit);
  const next =
    offset + limit < records.length ? Buffer.from(String(offset + limit)).toString("base64url") : undefined;
  return { tasks: page.map(toInfo), ...(next !== undefined ? { nextCursor: next } : {}) };
};
