import { toMillis } from "@quiver/core";
import { z } from "zod";
import { durationSchema as duration } from "./duration-schema.js";

/** The config file's `tasks` section: the tasks' default deadline, a deadline per tool, and the lease. */
export const tasksSchema = z
  .object({
    /** How long a task may run before it is stopped (default "300s", the co-scientist's `timeout_seconds`). */
    deadline: duration.optional(),
    /** A deadline per tool name, over `deadline` (a request's `timeout_seconds` wins over both). */
    tools: z.record(z.string().min(1), duration).optional(),
    /** How long a replica's hold on a running task lasts unrenewed (default "30s"): how soon another replica takes over. */
    lease: duration.optional(),
  })
  .strict();

/** How long the host's tasks may run (`tasks` in the config file). */
export interface TaskSettings {
  /** Every task's deadline unless its tool or its request says otherwise (default 300 000). */
  readonly deadlineMs: number;
  /** Deadlines per tool name, in milliseconds. */
  readonly toolDeadlinesMs: Readonly<Record<string, number>>;
  /** The running replica's lease on a task (default 30 000): past it, another replica takes the task over or fails it. */
  readonly leaseMs: number;
}

/** The task settings of a validated config file's `tasks` section. */
export const resolveTaskSettings = (file: z.output<typeof tasksSchema> | undefined): TaskSettings => ({
  deadlineMs: file?.deadline !== undefined ? toMillis(file.deadline as never) : 300_000,
  toolDeadlinesMs: Object.fromEntries(
    Object.entries(file?.tools ?? {}).map(([tool, d]) => [tool, toMillis(d as never)]),
  ),
  leaseMs: file?.lease !== undefined ? toMillis(file.lease as never) : 30_000,
});
