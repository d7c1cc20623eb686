import type { TaskV1 } from "@modelcontextprotocol/ext-tasks/core/v1";
import type { TaskError, TaskInfo } from "@quiver/tasks";

/** The `_meta` key that ties a result to its task (MCP 2025-11-25). */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

/**
 * The 2026-07-28 extension's id (`TASKS_EXTENSION_ID_V2` of the extension package, written out here
 * so that listing tools and declaring capabilities never load its schemas).
 */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/**
 * The server's task capabilities: `tasks` for 2025-11-25 (list, cancel, task-augmented `tools/call`)
 * and the `io.modelcontextprotocol/tasks` extension for 2026-07-28 (the SDK drops `tasks` there).
 */
export const TASK_SERVER_CAPABILITIES = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION_ID]: {} },
};

/** JSON-RPC error codes the task methods answer with. */
export const RPC = { methodNotFound: -32601, invalidParams: -32602, internal: -32603 } as const;

/**
 * A task on the 2025-11-25 wire: ISO times, `ttl` and `pollInterval` in milliseconds. While it works,
 * its status message is the tool's latest progress message (the wire has no progress field).
 */
export const toTaskV1 = (task: TaskInfo): TaskV1 => {
  const message =
    task.status === "working" ? (task.progress?.message ?? task.statusMessage) : task.statusMessage;
  return {
    taskId: task.id,
    status: task.status,
    ...(message !== undefined ? { statusMessage: message } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
};

/** The `_meta` of a task answer: its progress, for clients that show it. */
export const progressMeta = (task: TaskInfo): Record<string, unknown> =>
  task.progress ? { "quiver/progress": task.progress } : {};

/** A JSON-RPC error for a task request the runner could not answer (never says whose task it is). */
export const taskRpcError = (error: TaskError): { code: number; message: string } => ({
  code: error.code === "failed" ? RPC.internal : RPC.invalidParams,
  message: error.message,
});
