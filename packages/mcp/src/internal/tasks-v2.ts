import {
  CallToolRequestV1Schema,
  CancelTaskRequestV1Schema,
  GetTaskRequestV1Schema,
} from "@modelcontextprotocol/ext-tasks/core/v1";
import { hasTaskClientCapabilityV2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import type { MessageExtraInfo } from "@modelcontextprotocol/server";
import type { TaskInfo } from "@quiver/tasks";
import { principalOf } from "./principal.js";
import { startTaskCall, type TaskCallContext, taskCallResult } from "./tasks-call.js";
import { progressMeta, RPC, taskRpcError } from "./tasks-wire.js";

/** What a task request answers: a JSON-RPC result or error, or `"plain"` for the SDK to answer. */
type Answer =
  | { readonly result: Record<string, unknown> }
  | { readonly error: { readonly code: number; readonly message: string } }
  | "plain";

type Request = { readonly method: string; readonly params?: Record<string, unknown> };

/** A task on the 2026-07-28 extension's wire (`ttlMs`, `pollIntervalMs`, ISO times). */
const toTaskV2 = (task: TaskInfo) => {
  const message =
    task.status === "working" ? (task.progress?.message ?? task.statusMessage) : task.statusMessage;
  return {
    taskId: task.id,
    status: task.status,
    ...(message !== undefined ? { statusMessage: message } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
};

/** Whether this layer answers a 2026-07-28 request: a task-capable client's `tools/call`, or a `tasks/*` method. */
export const isTaskRequestV2 = (request: Request): boolean =>
  request.method === "tasks/get" ||
  request.method === "tasks/cancel" ||
  request.method === "tasks/update" ||
  (request.method === "tools/call" && hasTaskClientCapabilityV2(request.params));

/**
 * A `tasks/get` answer: the task, with its result inline once it ended. In the extension a tool's
 * error result is a `completed` task whose result has `isError` (2025-11-25 calls it `failed`); a task
 * without a result (its replica stopped, it expired) is `failed` with a JSON-RPC error.
 */
const detailed = async (ctx: TaskCallContext, task: TaskInfo, principal: string | undefined) => {
  const base = { ...toTaskV2(task), resultType: "complete" };
  const meta = progressMeta(task);
  const withMeta = Object.keys(meta).length > 0 ? { _meta: meta } : {};
  if (task.status === "working" || task.status === "input_required" || task.status === "cancelled") {
    return { ...base, ...withMeta };
  }
  const answer = await taskCallResult(ctx, await ctx.runner.result(task.id, principal));
  if ("result" in answer) {
    const { _meta, ...result } = answer.result as Record<string, unknown>;
    return { ...base, status: "completed", result: { ...result, resultType: "complete" } };
  }
  return { ...base, status: "failed", error: answer.error };
};

/** Answers a 2026-07-28 task request (`resultType: "task"` for a started call). */
export const answerV2 = async (
  ctx: TaskCallContext,
  request: Request,
  extra: MessageExtraInfo | undefined,
): Promise<Answer> => {
  const principal = principalOf(ctx.options, extra?.authInfo);
  if (request.method === "tools/call") {
    // The call's own shape is the same in both eras; the V1 schema reads name and arguments.
    const parsed = CallToolRequestV1Schema.safeParse({ jsonrpc: "2.0", id: 0, ...request });
    if (!parsed.success) return "plain";
    const started = await startTaskCall(ctx, parsed.data.params, extra, request.params?._meta);
    if (started === "plain" || "error" in started) return started;
    return { result: { ...toTaskV2(started.task), resultType: "task" } };
  }
  if (request.method === "tasks/update") {
    return { error: { code: RPC.invalidParams, message: "No task of this server waits for input." } };
  }
  const schema = request.method === "tasks/get" ? GetTaskRequestV1Schema : CancelTaskRequestV1Schema;
  const parsed = schema.safeParse({ jsonrpc: "2.0", id: 0, ...request });
  if (!parsed.success)
    return { error: { code: RPC.invalidParams, message: "Invalid params: taskId is required" } };
  const { taskId } = parsed.data.params;
  if (request.method === "tasks/cancel") {
    const cancelled = await ctx.runner.cancel(taskId, principal);
    return cancelled.ok ? { result: { resultType: "complete" } } : { error: taskRpcError(cancelled) };
  }
  const got = await ctx.runner.get(taskId, principal);
  return got.ok ? { result: await detailed(ctx, got.task, principal) } : { error: taskRpcError(got) };
};
