import { setTimeout as sleep } from "node:timers/promises";
import type { Catalog, SessionContext, ToolResult } from "@quiver/core";
import type { TaskError, TaskInfo, TaskRunner } from "@quiver/tasks";

/** Options of {@link createToolTasks}. */
export interface ToolTasksOptions {
  /** Who starts the tasks and so owns them (its principal), and the session their calls run in. */
  readonly session?: SessionContext;
  /** How often `follow` polls a task (default the task's own poll interval). */
  readonly pollIntervalMs?: number;
}

/** A task and, once it ended, its final envelope (an error envelope when it has no result). */
export interface TaskPoll {
  readonly task: TaskInfo;
  /** Present once the task ended: the call's envelope, or one saying why there is none. */
  readonly envelope?: ToolResult;
}

/** Start, poll and cancel tool calls as tasks of a task runner, as one caller. */
export interface ToolTasks {
  /** Whether the tool may run as a task (its `task` slot): only those can be started. */
  mayRunAsTask(name: string): boolean;
  /** Starts the call in the background; answers the task (status `working`). Throws for a tool that may not run as one. */
  start(name: string, input: unknown, options?: { readonly deadlineMs?: number }): Promise<TaskInfo>;
  /** The task's status, with its envelope once it ended; throws for an unknown id or another caller's task. */
  poll(id: string): Promise<TaskPoll>;
  /** Cancels the working task (its call is aborted on whichever replica runs it); answers it. */
  cancel(id: string): Promise<TaskInfo>;
  /**
   * Polls the task until it ends, yielding it each time its progress or status changed, and returns
   * its envelope; an aborted `signal` cancels the task (the envelope then says so).
   */
  follow(id: string, options?: { readonly signal?: AbortSignal }): AsyncGenerator<TaskInfo, ToolResult>;
}

/** The envelope of a task that ended without a result (cancelled, failed on a stopped replica, expired). */
const noResult = (task: TaskInfo, plugin: string, error: TaskError): ToolResult => ({
  status: error.code === "cancelled" ? "unavailable" : "error",
  message: error.message,
  error: { kind: "unavailable", message: error.message, retryable: error.code !== "cancelled" },
  metadata: {
    tool: task.tool,
    plugin,
    callId: task.id,
    durationMs: Math.max(0, task.updatedAt - task.createdAt),
    attempts: 0,
    cached: false,
    truncated: false,
  },
});

const changed = (a: TaskInfo | undefined, b: TaskInfo) =>
  a === undefined || a.status !== b.status || JSON.stringify(a.progress) !== JSON.stringify(b.progress);

/**
 * Tool calls as tasks of a `@quiver/tasks` runner over the catalog, owned by `session.principal`:
 * what the AI SDK and LangChain adapters use with their `tasks` option, and what a hand-written loop
 * uses to start a long call, poll it and cancel it. Only task-capable tools (`task` slot) start.
 *
 * @example
 * import { memoryDriver } from "@quiver/core"
 * import { createTaskRunner } from "@quiver/tasks"
 * const store = memoryDriver()
 * const tasks = createToolTasks(catalog, createTaskRunner({ catalog, store }), { session: { principal: "alice" } })
 * const task = await tasks.start("alphafold_predict_structure", { sequence: "MKTAYIAKQR" })
 * const { envelope } = await tasks.poll(task.id)
 */
export const createToolTasks = (
  catalog: Pick<Catalog, "list">,
  runner: Pick<TaskRunner, "start" | "result" | "cancel">,
  options: ToolTasksOptions = {},
): ToolTasks => {
  const principal = options.session?.principal;
  const infoOf = (name: string) => catalog.list().find((t) => t.name === name);
  const pluginOf = (tool: string) => infoOf(tool)?.plugin ?? "";

  const poll = async (id: string): Promise<TaskPoll> => {
    const answer = await runner.result(id, principal);
    if (answer.ok) return { task: answer.task, envelope: answer.envelope };
    if (!answer.task) throw new Error(answer.message);
    if (answer.code === "working") return { task: answer.task };
    return { task: answer.task, envelope: noResult(answer.task, pluginOf(answer.task.tool), answer) };
  };
  const cancel = async (id: string): Promise<TaskInfo> => {
    const answer = await runner.cancel(id, principal);
    if (answer.ok || answer.task) return answer.ok ? answer.task : answer.task!;
    throw new Error(answer.message);
  };

  return {
    mayRunAsTask: (name) => infoOf(name)?.task === "optional",
    async start(name, input, startOptions = {}) {
      if (infoOf(name)?.task !== "optional")
        throw new TypeError(
          `${name} may not run as a task (its task slot is not "optional"); call it plainly.`,
        );
      return runner.start(name, input, {
        ...(options.session ? { session: options.session } : {}),
        ...(startOptions.deadlineMs !== undefined ? { deadlineMs: startOptions.deadlineMs } : {}),
      });
    },
    poll,
    cancel,
    // A plain loop, not effect's Schedule: the adapters are Promise code without effect, and each
    // poll is yielded to the framework's async iteration as it comes.
    async *follow(id, followOptions = {}) {
      const { signal } = followOptions;
      let last: TaskInfo | undefined;
      for (;;) {
        // Aborted: the task is cancelled, and the next poll answers the envelope saying so.
        if (signal?.aborted) await cancel(id).catch(() => undefined);
        const now = await poll(id);
        if (now.envelope) return now.envelope;
        if (changed(last, now.task)) yield now.task;
        last = now.task;
        // An abort ends the wait at once; the loop's next turn cancels the task.
        await sleep(options.pollIntervalMs ?? now.task.pollIntervalMs, undefined, { signal }).catch(() => {});
      }
    },
  };
};
