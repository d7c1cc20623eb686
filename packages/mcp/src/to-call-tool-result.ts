import type { ContentPart, ToolResult } from "@quiver/core";

/** How much of the envelope goes into the text content block(s): the summary, or the summary and the data as JSON. */
export type TextContentMode = "summary" | "summary-and-data";

/** The MCP `tools/call` result for an envelope (the SDK's CallToolResult shape). */
export interface EnvelopeCallResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string } | ContentPart>;
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

const MAX_DEPTH = 256;

/**
 * True when `value` survives JSON unchanged: plain objects and arrays of strings, finite numbers,
 * booleans and null, with no `undefined`, dates, class instances, `toJSON` or cycles (deeper than
 * 256 levels counts as not plain). Walking costs no allocation, unlike a JSON round trip.
 */
export const isPlainJson = (value: unknown, depth = 0): boolean => {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      if ("toJSON" in value) return false;
      for (const key in value) {
        if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
};

/**
 * Maps an envelope to a tools/call result: the whole envelope as `structuredContent`, a text summary
 * (plus the data as JSON, for clients that read only text) followed by the media parts of
 * `metadata.content` (image, audio, resource blocks), and `isError` for every status but success and partial (a partial is an answer
 * with caveats: `[partial]` and its message lead the text). `structuredContent` is the envelope itself when it is already plain JSON (the usual case:
 * transports serialise it anyway), else a JSON copy of it (dates become strings, `undefined` fields go).
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
  // Media the tool returned (`outcome(data, { content })`) follow as MCP blocks of the same shape.
  const parts = r.metadata.content;
  if (Array.isArray(parts)) for (const part of parts) content.push(part as ContentPart);
  return {
    content,
    structuredContent: (isPlainJson(r) ? r : JSON.parse(JSON.stringify(r))) as Record<string, unknown>,
    isError: r.status !== "success" && r.status !== "partial",
  };
};
