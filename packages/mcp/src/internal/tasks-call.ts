import type { CallToolRequestV1 } from "@modelcontextprotocol/ext-tasks/core/v1";
import type { AuthInfo, CallToolResult, MessageExtraInfo } from "@modelcontextprotocol/server";
import type { Catalog, SessionContext, ToolInfo } from "@quiver/core";
import type { TaskInfo, TaskResult, TaskRunner } from "@quiver/tasks";
import { type TextContentMode, toCallToolResult } from "../to-call-tool-result.js";
import { type PrincipalOptions, principalOf } from "./principal.js";
import { RELATED_TASK_META, RPC, taskRpcError } from "./tasks-wire.js";
import { aliasedListing, type ListedTool, type SchemaErrorReporter, toolListing } from "./tool-listing.js";

/** What serving task requests needs from the MCP server it runs beside (see `serveTasks`). */
export interface TaskServing {
  readonly runner: TaskRunner;
  readonly served: Promise<{ readonly catalog: Catalog; readonly extras: ReadonlyMap<string, unknown> }>;
  readonly options: PrincipalOptions & {
    readonly filter?: ((tool: ToolInfo, principal: string | undefined) => boolean) | undefined;
    readonly missingScopes?:
      | ((tool: ToolInfo, authInfo: AuthInfo | undefined) => ReadonlyArray<string>)
      | undefined;
    readonly aliasSets?: ReadonlyArray<string> | undefined;
    readonly textContent?: TextContentMode | undefined;
  };
  readonly report: SchemaErrorReporter;
  /** The session a call runs in, as the server's own tools/call builds it. */
  readonly sessionOf: (ctx: {
    readonly http?: { readonly authInfo?: AuthInfo } | undefined;
    readonly sessionId?: string;
  }) => SessionContext;
}

/** The serving context of one connection. */
export interface TaskCallContext extends TaskServing {
  /** The SDK's era-aware projection of a tools/call result (`server.projectCallToolResult`). */
  readonly project: (
    result: CallToolResult,
    outputSchema: Record<string, unknown> | undefined,
  ) => CallToolResult;
  /** The connection's transport session, if any. */
  readonly sessionId: () => string | undefined;
}

/** What a task-augmented call answers: the started task, a JSON-RPC error, or `"plain"` to let the SDK answer it as a plain call. */
export type TaskCallAnswer =
  | { readonly task: TaskInfo }
  | { readonly error: { readonly code: number; readonly message: string } }
  | "plain";

/** Whether tools/list shows a listed tool as task-capable: a catalog tool under its own name whose slot says so. */
export const mayRunAsTask = (t: ListedTool): boolean =>
  t.info.task === "optional" && t.definition.name === t.info.name;

/**
 * Starts a task for a task-augmented `tools/call`. A call the server answers otherwise (an unknown
 * tool, a tool beside the catalog, a caller lacking scopes) is left to the plain handler; a tool
 * that may not run as a task, or an alias of one, answers -32601 as the specification says.
 * `meta` is the request's `_meta`: its `timeout_seconds` is the task's deadline.
 */
export const startTaskCall = async (
  ctx: TaskCallContext,
  params: CallToolRequestV1["params"],
  extra: MessageExtraInfo | undefined,
  meta?: unknown,
): Promise<TaskCallAnswer> => {
  const { catalog, extras } = await ctx.served;
  const authInfo = extra?.authInfo;
  const principal = principalOf(ctx.options, authInfo);
  const listing = toolListing(catalog, ctx.report);
  const { aliases } = aliasedListing(catalog, listing, ctx.options.aliasSets ?? []);
  const name = params.name;
  const listed = listing.get(name);
  if (extras.has(name)) return "plain";
  if (aliases.byAlias.has(name)) return notTaskCapable(name);
  // Unknown, hidden from this caller, or lacking scopes: the plain handler answers as it always does.
  if (!listed || (ctx.options.filter && !ctx.options.filter(listed.info, principal))) return "plain";
  if ((ctx.options.missingScopes?.(listed.info, authInfo).length ?? 0) > 0) return "plain";
  if (listed.info.task !== "optional") return notTaskCapable(name);
  const sessionId = ctx.sessionId();
  const session = ctx.sessionOf({
    ...(authInfo ? { http: { authInfo } } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
  });
  // The task's own deadline, per request: `_meta.timeout_seconds` (the co-scientist's name for it).
  const seconds = (meta as Record<string, unknown> | undefined)?.timeout_seconds;
  const task = await ctx.runner.start(listed.info.name, params.arguments ?? {}, {
    session,
    ...(params.task?.ttl !== undefined ? { ttlMs: params.task.ttl } : {}),
    ...(typeof seconds === "number" && seconds > 0 ? { deadlineMs: seconds * 1000 } : {}),
  });
  return { task };
};

const notTaskCapable = (name: string): TaskCallAnswer => ({
  error: {
    code: RPC.methodNotFound,
    message: `${name} cannot run as a task (its execution.taskSupport is not "optional"); call it without "task".`,
  },
});

/** A `tasks/result` answer: the tools/call result a plain call gives, tied to its task. */
export const taskCallResult = async (ctx: TaskCallContext, answer: TaskResult) => {
  if (!answer.ok) return { error: taskRpcError(answer) };
  const { catalog } = await ctx.served;
  const listed = toolListing(catalog, ctx.report).get(answer.task.tool);
  const call = ctx.project(
    toCallToolResult(answer.envelope, ctx.options.textContent) as CallToolResult,
    listed?.definition.outputSchema,
  );
  return {
    result: { ...call, _meta: { ...call._meta, [RELATED_TASK_META]: { taskId: answer.task.id } } },
  };
};

/** A tools/list entry, with `execution.taskSupport: "optional"` when tasks are served and the tool may run as one. */
export const withTaskSupport = (
  t: ListedTool,
  served: boolean,
): ListedTool["definition"] & { execution?: { taskSupport: "optional" } } =>
  served && mayRunAsTask(t) ? { ...t.definition, execution: { taskSupport: "optional" } } : t.definition;
