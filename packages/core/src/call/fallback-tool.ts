import type { ToolResult } from "../envelope.js";
import { TRANSIENT_KINDS } from "../error-kinds.js";
import type { ToolFailure } from "../errors.js";
import type { CallOptions } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import type { AttemptState } from "./run-tool.js";

/**
 * The fallback step, after a failure: the answer of the tool's fallback tool (`policy.fallback.tool`,
 * called with the same input and session) to a transient failure; undefined when it has none, the
 * failure is not transient, or this call is itself a fallback's (fallbacks never chain).
 */
export const fallbackAnswer = async (
  reg: RegisteredTool,
  failure: ToolFailure,
  state: AttemptState,
  catalog: {
    readonly call: (name: string, input: unknown, options: CallOptions) => Promise<ToolResult>;
    readonly has: (name: string) => boolean;
  },
): Promise<{ readonly tool: string; readonly answer: ToolResult } | undefined> => {
  const tool = reg.policy.fallback?.tool;
  const { options, trace } = state;
  if (!tool || options.viaFallback || !TRANSIENT_KINDS.has(failure.kind) || !catalog.has(tool))
    return undefined;
  // The fallback tool is not the task's tool: it gets no `ctx.task` (a resume point is the task tool's).
  const { task: _task, ...rest } = options;
  const answer = await catalog.call(tool, state.input, {
    ...rest,
    viaFallback: true,
    ...(trace ? { trace: trace.childContext(), transportSpan: undefined } : {}),
  });
  return { tool, answer };
};
