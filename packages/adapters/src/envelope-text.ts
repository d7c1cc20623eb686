import type { ToolResult } from "@quiver/core";

/**
 * The envelope as the text a model reads in a tool result: compact JSON of the whole envelope
 * (status, message, data, instruction, error, suggestion, guidance, escalate), without the call
 * bookkeeping in `metadata` except what helps the model (tool, cached, truncated, stale, source).
 *
 * Use it when you build tool-result messages yourself; the dispatcher and adapters use it.
 *
 * @example
 * messages.push({ role: "tool", tool_call_id: id, content: envelopeText(await catalog.call(name, args)) });
 */
export const envelopeText = (r: ToolResult): string => {
  const { metadata, ...rest } = r;
  const keep: Record<string, unknown> = { tool: metadata.tool };
  for (const k of ["cached", "truncated", "stale", "source", "fallbackTool"] as const) {
    if (metadata[k] !== undefined && metadata[k] !== false) keep[k] = metadata[k];
  }
  return JSON.stringify({ ...rest, metadata: keep });
};

/**
 * True when the call did not answer (the provider's error flag): every status but `success` and
 * `partial`. A `partial` is an answer with caveats, sent as a normal tool result.
 */
export const isErrorResult = (r: ToolResult): boolean => r.status !== "success" && r.status !== "partial";
