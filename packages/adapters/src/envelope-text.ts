import type { ToolResult } from "@quiver/core";
import { resourceLinks } from "./resource-links.js";

/**
 * The envelope as the text a model reads in a tool result: compact JSON of the whole envelope
 * (status, message, data, instruction, error, suggestion, guidance, escalate), without the call
 * bookkeeping in `metadata` except what helps the model (tool, cached, truncated, stale, source, and the
 * `resource_link` items of `content`, where the rest of a result is).
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
  // Resource links say where the rest of the result is: the model needs them to follow it (other media stay out).
  const links = resourceLinks(r);
  if (links.length > 0) keep.content = links;
  return JSON.stringify({ ...rest, metadata: keep });
};

/**
 * True when the call did not answer (the provider's error flag): every status but `success` and
 * `partial`. A `partial` is an answer with caveats, sent as a normal tool result.
 */
export const isErrorResult = (r: ToolResult): boolean => r.status !== "success" && r.status !== "partial";
