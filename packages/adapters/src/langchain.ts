import { DynamicStructuredTool, type ToolSchemaBase } from "@langchain/core/tools";
import type { Catalog, SessionContext, ToolInfo, ToolProgress, ToolResult } from "@quiver/core";
import type { TaskRunner } from "@quiver/tasks";
import { envelopeText } from "./envelope-text.js";
import { exportTools } from "./internal/provider-schemas.js";
import { READ_RESOURCE_TOOL, readAnswer, readResourceLink } from "./resource-links.js";
import { createToolTasks } from "./tool-tasks.js";

export { type ResourceLink, readResourceLink, resourceLinks } from "./resource-links.js";

/** Options of `toLangChainTools`. */
export interface LangChainToolsOptions {
  /** Who is calling and in which conversation (principal, session id, values for injected fields). */
  readonly session?: SessionContext;
  /** Which tools to offer (default: all). */
  readonly filter?: (tool: ToolInfo) => boolean;
  /**
   * "content" (default): the tool returns the envelope as JSON text, which becomes the ToolMessage.
   * "content_and_artifact": the same text plus the envelope object as the ToolMessage's artifact.
   */
  readonly responseFormat?: "content" | "content_and_artifact";
  /** Progress of long calls. */
  readonly onProgress?: (tool: string, progress: ToolProgress) => void;
  /**
   * Runs each task-capable tool (`task` slot) as a task of this runner (`@quiver/tasks`, on the
   * catalog), owned by `session.principal`: its progress goes to `onProgress` as it is polled, the
   * run's abort signal cancels the task, and the envelope is the tool's answer.
   */
  readonly tasks?: Pick<TaskRunner, "start" | "result" | "cancel">;
}

/**
 * Turns a catalog into LangChain.js structured tools (`DynamicStructuredTool` with the tool's JSON
 * Schema) for agents and `model.bindTools`. Each call runs `catalog.call` with the run's abort
 * signal, so the runtime's policies apply; a failure is an envelope the model reads, not a throw.
 * With `tasks`, a task-capable tool runs as a task (progress to `onProgress`, abort cancels it).
 *
 * @example
 * import { toLangChainTools } from "@quiver/adapters/langchain";
 * const tools = toLangChainTools(catalog, { session: { principal: "alice" } });
 * const agent = createAgent({ model, tools });
 */
export const toLangChainTools = (
  catalog: Catalog,
  options: LangChainToolsOptions = {},
): DynamicStructuredTool[] => {
  const tasks = options.tasks
    ? createToolTasks(catalog, options.tasks, options.session ? { session: options.session } : {})
    : undefined;
  /** A task-capable tool's call as a task, followed to its envelope. */
  const asTask = async (
    name: string,
    input: unknown,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> => {
    const started = await tasks!.start(name, input);
    const follow = tasks!.follow(started.id, signal ? { signal } : {});
    for (;;) {
      const next = await follow.next();
      if (next.done) return next.value;
      if (next.value.progress) options.onProgress?.(name, next.value.progress);
    }
  };
  return exportTools(catalog, "mcp", options.filter, undefined).map(
    ({ info, parameters }) =>
      new DynamicStructuredTool({
        name: info.name,
        description: info.description,
        schema: parameters as ToolSchemaBase,
        responseFormat: options.responseFormat ?? "content",
        func: async (input: unknown, _runManager, config) => {
          const result = tasks?.mayRunAsTask(info.name)
            ? await asTask(info.name, input, config?.signal)
            : await catalog.call(info.name, input, {
                ...(options.session ? { session: options.session } : {}),
                ...(config?.signal ? { signal: config.signal } : {}),
                ...(options.onProgress
                  ? { onProgress: (p: ToolProgress) => options.onProgress!(info.name, p) }
                  : {}),
              });
          const text = envelopeText(result);
          return options.responseFormat === "content_and_artifact" ? [text, result] : text;
        },
      }),
  );
};

/**
 * A LangChain.js tool (`read_resource`) that reads a resource by URI from the catalog, under `session`: give
 * it to the agent beside the catalog's tools so it can follow a `resource_link` a result gave. Answers the
 * contents (or the failure) as JSON text.
 *
 * @example
 * const session = { principal: "alice" };
 * const agent = createAgent({ model, tools: [...toLangChainTools(catalog, { session }), langChainResourceReader(catalog, { session })] });
 */
export const langChainResourceReader = (
  catalog: Pick<Catalog, "readResource">,
  options: Pick<LangChainToolsOptions, "session"> = {},
): DynamicStructuredTool =>
  new DynamicStructuredTool({
    name: READ_RESOURCE_TOOL.name,
    description: READ_RESOURCE_TOOL.description,
    schema: READ_RESOURCE_TOOL.parameters as unknown as ToolSchemaBase,
    func: async (input: unknown, _runManager, config) => {
      const { uri } = input as { uri: string };
      const answer = await readResourceLink(catalog, uri, {
        ...(options.session ? { session: options.session } : {}),
        ...(config?.signal ? { signal: config.signal } : {}),
      });
      return JSON.stringify(readAnswer(answer));
    },
  });
