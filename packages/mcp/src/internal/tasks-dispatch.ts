import {
  CallToolRequestV1Schema,
  CancelTaskRequestV1Schema,
  GetTaskRequestV1Schema,
  GetTaskResultRequestV1Schema,
  ListTasksRequestV1Schema,
} from "@modelcontextprotocol/ext-tasks/core/v1";
import type { JSONRPCMessage, MessageExtraInfo, Server, Transport } from "@modelcontextprotocol/server";
import { principalOf } from "./principal.js";
import { startTaskCall, type TaskCallContext, type TaskServing, taskCallResult } from "./tasks-call.js";
import { answerV2, isTaskRequestV2 } from "./tasks-v2.js";
import { progressMeta, RPC, taskRpcError, toTaskV1 } from "./tasks-wire.js";

/** A JSON-RPC answer: a result or an error. */
export type RpcAnswer =
  | { readonly result: Record<string, unknown> }
  | { readonly error: { readonly code: number; readonly message: string } };

const TASK_METHODS = new Set(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]);
/** The 2026-07-28 per-request envelope key: it tells the two eras' requests apart. */
const MODERN_META = "io.modelcontextprotocol/protocolVersion";

type Request = { jsonrpc: "2.0"; id: string | number; method: string; params?: Record<string, unknown> };

/** The era a task request belongs to, or undefined for a message this layer leaves to the SDK. */
const taskEra = (message: JSONRPCMessage): "v1" | "v2" | undefined => {
  const m = message as Partial<Request>;
  if (typeof m.method !== "string" || m.id === undefined) return undefined;
  const meta = m.params?._meta as Record<string, unknown> | undefined;
  if (meta && MODERN_META in meta) return isTaskRequestV2(m as Request) ? "v2" : undefined;
  return TASK_METHODS.has(m.method) || (m.method === "tools/call" && typeof m.params?.task === "object")
    ? "v1"
    : undefined;
};

const invalid = (error: { message: string }): RpcAnswer => ({
  error: { code: RPC.invalidParams, message: `Invalid params: ${error.message}` },
});

/** Answers one task request under the caller's identity. */
const answer = async (
  ctx: TaskCallContext,
  request: Request,
  extra: MessageExtraInfo | undefined,
  signal: AbortSignal,
): Promise<RpcAnswer | "plain"> => {
  const principal = principalOf(ctx.options, extra?.authInfo);
  const { runner } = ctx;
  switch (request.method) {
    case "tools/call": {
      const parsed = CallToolRequestV1Schema.safeParse(request);
      if (!parsed.success) return invalid(parsed.error);
      const started = await startTaskCall(ctx, parsed.data.params, extra, request.params?._meta);
      return started === "plain" || "error" in started
        ? started
        : { result: { task: toTaskV1(started.task) } };
    }
    case "tasks/list": {
      const parsed = ListTasksRequestV1Schema.safeParse(request);
      if (!parsed.success) return invalid(parsed.error);
      const cursor = parsed.data.params?.cursor;
      const page = await runner.list(principal, cursor !== undefined ? { cursor } : {});
      return {
        result: {
          tasks: page.tasks.map(toTaskV1),
          ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
        },
      };
    }
    case "tasks/result": {
      const parsed = GetTaskResultRequestV1Schema.safeParse(request);
      if (!parsed.success) return invalid(parsed.error);
      // As the specification says, tasks/result waits until the task ends.
      return taskCallResult(
        ctx,
        await runner.result(parsed.data.params.taskId, principal, { wait: true, signal }),
      );
    }
    default: {
      const schema = request.method === "tasks/get" ? GetTaskRequestV1Schema : CancelTaskRequestV1Schema;
      const parsed = schema.safeParse(request);
      if (!parsed.success) return invalid(parsed.error);
      const { taskId } = parsed.data.params;
      const got =
        request.method === "tasks/get"
          ? await runner.get(taskId, principal)
          : await runner.cancel(taskId, principal);
      if (!got.ok) return { error: taskRpcError(got) };
      const meta = progressMeta(got.task);
      return { result: { ...toTaskV1(got.task), ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) } };
    }
  }
};

/**
 * Puts the task layer in front of the SDK on a connected transport: task requests of either era are
 * answered here, every other message (and a task-augmented call this layer leaves to the plain
 * handler) goes to the SDK's own `onmessage`.
 */
export const installTaskLayer = (
  server: Server,
  serving: TaskServing,
  transport: Transport,
  closing: AbortSignal,
): void => {
  const ctx: TaskCallContext = {
    ...serving,
    project: (result, schema) => server.projectCallToolResult(result, schema),
    sessionId: () => transport.sessionId,
  };
  const sdk = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const era = taskEra(message);
    if (!era) return sdk?.(message, extra);
    const request = message as Request;
    void (era === "v1" ? answer(ctx, request, extra, closing) : answerV2(ctx, request, extra))
      // A defect: its text may name internals, so the caller gets a fixed line.
      .catch((): RpcAnswer => ({ error: { code: RPC.internal, message: "Internal error" } }))
      .then((a) =>
        a === "plain"
          ? sdk?.(message, extra)
          : transport.send({ jsonrpc: "2.0", id: request.id, ...a } as JSONRPCMessage),
      )
      .catch((error: unknown) =>
        transport.onerror?.(error instanceof Error ? error : new Error(String(error))),
      );
  };
};
