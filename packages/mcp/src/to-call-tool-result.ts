import type { ToolResult } from "@quiver/core";

/** How much of the envelope goes into the text content block(s): the summary, or the summary and the data as JSON. */
export type TextContentMode = "summary" | "summary-and-data";

/** The MCP `tools/call` result for an envelope (the SDK's CallToolResult shape). */
export interface EnvelopeCallResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent: Record<string, unknown>;
  isError: boolean;
}

/**
 * One short human text for an envelope: the status when it is not success, the message, and the
 * next step (suggestion, guidance, instruction) when there is one.
 */
export const summarise = (r: ToolResult): string => {
  const lines = [r.status === "success" ? r.message : `[${r.status}] ${r.message}`];
  if (r.suggestion) lines.push(`Suggestion: ${r.suggestion}`);
  if (r.guidance) lines.push(`Guidance: ${r.guidance}`);
  if (r.instruction) lines.push(`Instruction: ${r.instruction}`);
  if (r.confirmation)
    lines.push(`confirmation_token: ${r.confirmation.token} (expires ${r.confirmation.expiresAt})`);
  return lines.join("\n");
};

/**
 * Maps an envelope to a tools/call result: the whole envelope as `structuredContent`, a text summary
 * (plus the data as JSON, for clients that read only text), and `isError` for every status but
 * success.
 *
 * Use it when you register catalog tools on your own MCP server instead of `createMcpServer`.
 *
 * @example
 * server.setRequestHandler("tools/call", async (req) => toCallToolResult(await catalog.call(req.params.name, req.params.arguments)));
 */
export const toCallToolResult = (
  r: ToolResult,
  mode: TextContentMode = "summary-and-data",
): EnvelopeCallResult => {
  const content: EnvelopeCallResult["content"] = [{ type: "text", text: summarise(r) }];
  if (mode === "summary-and-data" && r.data !== undefined) {
    content.push({ type: "text", text: JSON.stringify(r.data) });
  }
  return {
    content,
    structuredContent: JSON.parse(JSON.stringify(r)) as Record<string, unknown>,
    isError: r.status !== "success",
  };
};
