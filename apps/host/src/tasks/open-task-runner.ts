import type { TaskRunner } from "@quiver/tasks";
import type { Host } from "../host/create-host.js";
import { hostTaskCaller } from "./task-caller.js";

/**
 * The task runner of `quiver serve`: on the host's store (memory, or the Redis every replica shares,
 * so any replica answers a poll or a cancel), running the catalog's task-capable tools and the
 * profile's seed tools. A task's deadline is the request's `timeout_seconds`, else its tool's in the
 * config file (`tasks.tools`), else the one the tool declares (`task: { support, deadline }`), else
 * `tasks.deadline` (300 s). A replica's lease on a task is `tasks.lease` (30 s): once it runs out,
 * another replica takes the task over (its tool stored a resume point) or fails it. @quiver/tasks
 * loads only here, when a server starts.
 *
 * @example
 * const tasks = await openTaskRunner(host)
 * createMcpHttpHandler(host.catalog, { tasks })
 */
export const openTaskRunner = async (host: Host): Promise<TaskRunner> => {
  const { createTaskRunner } = await import("@quiver/tasks");
  const { deadlineMs, toolDeadlinesMs, leaseMs } = host.settings.tasks;
  return createTaskRunner({
    catalog: hostTaskCaller(host.catalog, host.profile),
    store: host.store,
    deadlineMs,
    leaseMs,
    toolDeadlineMs: (tool) =>
      Object.hasOwn(toolDeadlinesMs, tool)
        ? toolDeadlinesMs[tool]
        : host.catalog.list().find((t) => t.name === tool)?.taskDeadlineMs,
  });
};

/**
 * A runner that waits for one still being made (`quiver serve --stdio` answers the client's opening
 * before the host, and so its store, is ready): each request waits for it, then goes to it.
 *
 * @example
 * const ready: Promise<Host> = Promise.resolve(host)
 * serveStdio(ready.then((h) => h.catalog), { tasks: deferredRunner(ready.then(openTaskRunner)) })
 */
export const deferredRunner = (ready: Promise<TaskRunner>): TaskRunner => {
  ready.catch(() => {});
  let replicaId = "";
  void ready.then(
    (r) => {
      replicaId = r.replicaId;
    },
    () => {},
  );
  return {
    get replicaId() {
      return replicaId;
    },
    start: async (...args) => (await ready).start(...args),
    get: async (...args) => (await ready).get(...args),
    result: async (...args) => (await ready).result(...args),
    list: async (...args) => (await ready).list(...args),
    cancel: async (...args) => (await ready).cancel(...args),
    sweep: async () => (await ready).sweep(),
    close: async () => (await ready.catch(() => undefined))?.close(),
  };
};
