import type { Catalog, SessionContext, ToolInfo, ToolProgress, ToolResult } from "@quiver/core";
import type { TaskInfo, TaskRunner } from "@quiver/tasks";
import { jsonSchema, type Tool, tool } from "ai";
import { envelopeText, isErrorResult } from "./envelope-text.js";
import { exportTools, type SchemaErrorHandler } from "./internal/provider-schemas.js";
import { READ_RESOURCE_TOOL, readAnswer, readResourceLink } from "./resource-links.js";
import { createToolTasks } from "./tool-tasks.js";

export { type ResourceLink, readResourceLink, resourceLinks } from "./resource-links.js";

/** Options of `toAiSdkTools`. */
export interface AiSdkToolsOptions {
  /** Who is calling and in which conversation (principal, session id, values for injected fields). */
  readonly session?: SessionContext;
  /** Which tools to offer (default: all). */
  readonly filter?: (tool: ToolInfo) => boolean;
  /**
   * Which schema export to hand the model (default "mcp": JSON Schema 2020-12 with defaults and
   * descriptions). "openai" gives strict-mode schemas for OpenAI models.
   */
  readonly target?: "mcp" | "openai" | "anthropic" | "gemini";
  /** Progress of long calls. */
  readonly onProgress?: (tool: string, progress: ToolProgress) => void;
  /** Called for a tool whose schema has no form for `target`; it gets its plain JSON Schema. */
  readonly onSchemaError?: SchemaErrorHandler;
  /**
   * Runs each task-capable tool (`task` slot) as a task of this runner (`@quiver/tasks`, on the
   * catalog), owned by `session.principal`: its `execute` streams the task's progress as preliminary
   * results (`{ task }`), then the envelope; an aborted step cancels the task.
   */
  readonly tasks?: Pick<TaskRunner, "start" | "result" | "cancel">;
}

/** A preliminary result of a tool run as a task: the task's status and progress so far. */
export interface AiSdkTaskUpdate {
  readonly task: TaskInfo;
}

/**
 * The AI SDK tool set built from a catalog: each tool's output is the Quiver envelope; with `tasks`,
 * a task-capable tool's preliminary results are {@link AiSdkTaskUpdate}s.
 */
export type AiSdkToolSet = Record<
  string,
  Tool<Record<string, unknown>, ToolResult | AiSdkTaskUpdate, Record<string, unknown>>
>;

/**
 * Turns a catalog into Vercel AI SDK tools (`tool({ description, inputSchema: jsonSchema(...),
 * execute })`) for `generateText`/`streamText`. Each `execute` runs `catalog.call` with the AI SDK's
 * abort signal, so the runtime's policies apply and a failure comes back as an envelope, never as a
 * throw; the model reads the envelope as JSON, marked as an error result for every status but
 * success. Input is validated (and repaired) by the catalog, not by the AI SDK. With `tasks`, a
 * task-capable tool runs as a task and streams its progress as preliminary results.
 *
 * @example
 * import { toAiSdkTools } from "@quiver/adapters/ai-sdk";
 * const { text } = await generateText({ model, tools: toAiSdkTools(catalog, { session: { principal: "alice" } }), stopWhen: stepCountIs(5), prompt });
 */
export const toAiSdkTools = (catalog: Catalog, options: AiSdkToolsOptions = {}): AiSdkToolSet => {
  const tools: AiSdkToolSet = {};
  const tasks = options.tasks
    ? createToolTasks(catalog, options.tasks, options.session ? { session: options.session } : {})
    : undefined;
  for (const { info, parameters } of exportTools(
    catalog,
    options.target ?? "mcp",
    options.filter,
    options.onSchemaError,
  )) {
    const name = info.name;
    const plain = (input: Record<string, unknown>, abortSignal: AbortSignal | undefined) =>
      catalog.call(name, input, {
        ...(options.session ? { session: options.session } : {}),
        ...(abortSignal ? { signal: abortSignal } : {}),
        ...(options.onProgress ? { onProgress: (p: ToolProgress) => options.onProgress!(name, p) } : {}),
      });
    // As a task: each change of its progress a preliminary result, the envelope the last one.
    async function* asTask(
      input: Record<string, unknown>,
      abortSignal: AbortSignal | undefined,
    ): AsyncGenerator<ToolResult | AiSdkTaskUpdate, void> {
      const started = await tasks!.start(name, input);
      const follow = tasks!.follow(started.id, abortSignal ? { signal: abortSignal } : {});
      for (;;) {
        const next = await follow.next();
        if (next.done) {
          yield next.value;
          return;
        }
        if (next.value.progress) options.onProgress?.(name, next.value.progress);
        yield { task: next.value };
      }
    }
    const runsAsTask = tasks?.mayRunAsTask(name) === true;
    tools[name] = tool<Record<string, unknown>, ToolResult | AiSdkTaskUpdate, Record<string, unknown>>({
      ...(info.title ? { title: info.title } : {}),
      description: info.description,
      inputSchema: jsonSchema<Record<string, unknown>>(parameters as Parameters<typeof jsonSchema>[0]),
      execute: (input, { abortSignal }) =>
        runsAsTask ? asTask(input, abortSignal) : plain(input, abortSignal),
      toModelOutput: ({ output }) => {
        // Only the final result reaches the model: the envelope (a task update is never final).
        const value = JSON.parse("task" in output ? JSON.stringify(output) : envelopeText(output));
        return "task" in output || isErrorResult(output)
          ? { type: "error-json", value }
          : { type: "json", value };
      },
    });
  }
  return tools;
};

/**
 * An AI SDK tool that reads a resource by URI from the catalog, under `session`: add it beside the catalog's
 * tools so the model can follow a `resource_link` a result gave (the envelope's `metadata.content`).
 *
 * @example
 * const session = { principal: "alice" };
 * const tools = { ...toAiSdkTools(catalog, { session }), read_resource: aiSdkResourceReader(catalog, { session }) };
 */
export const aiSdkResourceReader = (
  catalog: Pick<Catalog, "readResource">,
  options: Pick<AiSdkToolsOptions, "session"> = {},
): Tool<{ uri: string }, ReturnType<typeof readAnswer>, Record<string, unknown>> =>
  tool<{ uri: string }, ReturnType<typeof readAnswer>, Record<string, unknown>>({
    description: READ_RESOURCE_TOOL.description,
    inputSchema: jsonSchema<{ uri: string }>(READ_RESOURCE_TOOL.parameters),
    execute: async ({ uri }, { abortSignal }) =>
      readAnswer(
        await readResourceLink(catalog, uri, {
          ...(options.session ? { session: options.session } : {}),
          ...(abortSignal ? { signal: abortSignal } : {}),
        }),
      ),
    toModelOutput: ({ output }) =>
      "error" in output ? { type: "error-json", value: output } : { type: "json", value: output },
  });
