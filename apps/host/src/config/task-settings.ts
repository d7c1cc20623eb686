import { toMillis } from "@quiver/core";
import { z } from "zod";
import { durationSchema as duration } from "./duration-schema.js";

/** The config file's `tasks` section: the tasks' default deadline and a deadline per tool. */
export const tasksSchema = z
  .object({
    /** How long a task may run before it is stopped (default "300s", the co-scientist's `timeout_seconds`). */
    deadline: duration.optional(),
    /** A deadline per tool name, over `deadline` (a request's `timeout_seconds` wins over both). */
    tools: z.record(z.string().min(1), duration).optional(),
  })
  .strict();

/** How long the host's tasks may run (`tasks` in the config file). */
export interface TaskSettings {
  /** Every task's deadline unless its tool or its request says otherwise (default 300 000). */
  readonly deadlineMs: number;
  /** Deadlines per tool name, in milliseconds. */
  readonly toolDeadlinesMs: Readonly<Record<string, number>>;
}

/** The task settings of a validated config file's `tasks` section. */
export const resolveTaskSettings = (file: z.output<typeof tasksSchema> | undefined): TaskSettings => ({
  deadlineMs: file?.deadline !== undefined ? toMillis(file.deadline as never) : 300_000,
  toolDeadlinesMs: Object.fromEntries(
    Object.entries(file?.tools ?? {}).map(([tool, d]) => [tool, toMillis(d as never)]),
  ),
});
