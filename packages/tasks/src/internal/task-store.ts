import type { StoreDriver } from "@quiver/core";
import { type TaskInfo, type TaskRecord, TERMINAL_STATUSES } from "../task-types.js";

/** A record as stored: the task, and whether its final envelope was stored beside it. */
export interface StoredTask extends TaskRecord {
  readonly hasResult?: boolean;
}

/**
 * How long a record outlives its result once the task ended: the window in which asking for the
 * result answers "expired" (with the task's status) instead of "not found".
 */
export const RECORD_GRACE_MS = 60 * 60 * 1000;

/** The channel every runner listens on for cancels (the message is the task id). */
export const CANCEL_CHANNEL = "tasks:cancel";

/** The store keys of tasks; an owner key never holds `:` (see {@link ownerKey}), so prefixes list one owner. */
export const taskKeys = {
  /** The record, under its owner: `task:<owner>:<id>`. */
  record: (owner: string, id: string) => `task:${owner}:${id}`,
  /** An owner's records (for `list`). */
  owned: (owner: string) => `task:${owner}:`,
  /** The final envelope, with the task's time to live. */
  result: (owner: string, id: string) => `task-result:${owner}:${id}`,
  /** The running replica's lease (its id), renewed while it runs the task. */
  lease: (id: string) => `task-lease:${id}`,
  /** Present while the task is working; its value is the record's key (for the sweep). */
  live: (id: string) => `task-live:${id}`,
  /** Every live marker. */
  allLive: "task-live:",
  /** What a takeover re-runs the tool with (its input and session), kept once the tool stored a resume point. */
  takeover: (owner: string, id: string) => `task-takeover:${owner}:${id}`,
} as const;

/**
 * The key part of an owner: the driver's key of the principal (its SHA-256 on a shared backend, so
 * the principal never reaches it), escaped so it holds no `:`; `""` without a principal.
 */
export const ownerKey = (store: StoreDriver, principal: string | undefined): string =>
  principal === undefined || principal === "" ? "" : encodeURIComponent(store.key(`principal:${principal}`));

/** What a caller may see of a record. */
export const toInfo = (r: StoredTask): TaskInfo => ({
  id: r.id,
  tool: r.tool,
  status: r.status,
  ...(r.statusMessage !== undefined ? { statusMessage: r.statusMessage } : {}),
  ...(r.progress !== undefined ? { progress: r.progress } : {}),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  ttlMs: r.ttlMs,
  pollIntervalMs: r.pollIntervalMs,
  deadlineAt: r.deadlineAt,
});

/** True once the task ended. */
export const isTerminal = (r: Pick<TaskInfo, "status">): boolean => TERMINAL_STATUSES.has(r.status);

/** How long the store keeps a record from now: through its deadline while working, then its TTL and the grace. */
export const recordTtl = (r: StoredTask, now = Date.now()): number =>
  (isTerminal(r) ? 0 : Math.max(0, r.deadlineAt - now)) + r.ttlMs + RECORD_GRACE_MS;

/** A record read from the store, with the text it was read as (for compare-and-set). */
export interface ReadRecord {
  readonly raw: string;
  readonly record: StoredTask;
}

/** Reads a record; undefined when absent or not a task record. */
export const readRecord = async (store: StoreDriver, key: string): Promise<ReadRecord | undefined> => {
  const raw = await store.get(key);
  if (raw === undefined) return undefined;
  try {
    const record = JSON.parse(raw) as StoredTask;
    return typeof record?.id === "string" ? { raw, record } : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Changes a record in one compare-and-set step, read again and retried while another writer (a
 * cancel, a sweep, a progress write) got there first. `change` answers undefined to leave it as
 * it is. Answers the record as it now is and whether this call changed it; undefined when absent.
 */
export const updateRecord = async (
  store: StoreDriver,
  key: string,
  change: (r: StoredTask) => StoredTask | undefined,
): Promise<{ readonly record: StoredTask; readonly changed: boolean } | undefined> => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const read = await readRecord(store, key);
    if (!read) return undefined;
    const next = change(read.record);
    if (!next) return { record: read.record, changed: false };
    if (await store.compareAndSet(key, read.raw, JSON.stringify(next), recordTtl(next))) {
      return { record: next, changed: true };
    }
  }
  // Twenty writers in a row won: report it unchanged rather than spin.
  const last = await readRecord(store, key);
  return last ? { record: last.record, changed: false } : undefined;
};
