import { ERROR_KINDS } from "@quiver/core";

type Json = Record<string, unknown>;

const STATUSES = ["success", "partial", "error", "timeout", "access_denied", "unavailable"];

/**
 * The `outputSchema` served in tools/list: the result envelope (what `structuredContent` holds), with
 * `data` typed by the tool's own output schema when the call succeeded and nothing was truncated.
 * On other statuses `data` is free-form (partial data, a confirmation preview), so a client that
 * validates `structuredContent` against this schema never rejects a genuine envelope.
 */
export const envelopeOutputSchema = (toolOutput: Json): Json => {
  const { $schema: _drop, ...output } = toolOutput;
  return {
    type: "object",
    description:
      "The Quiver result envelope. On status success, data matches the tool's output schema; otherwise read message, error, suggestion and guidance.",
    properties: {
      status: {
        type: "string",
        enum: STATUSES,
        description: "success | partial | error | timeout | access_denied | unavailable",
      },
      message: { type: "string", description: "One line: what happened." },
      data: { description: "The tool's output (on partial: what there is)." },
      instruction: { type: "string", description: "How to use the data." },
      error: {
        type: "object",
        properties: {
          kind: { type: "string", enum: [...ERROR_KINDS] },
          message: { type: "string" },
          retryable: { type: "boolean" },
          retryAfterMs: { type: "number" },
        },
        required: ["kind", "message", "retryable"],
      },
      suggestion: { type: "string", description: "How to recover." },
      guidance: { type: "string", description: "What to do instead when the tool is unavailable." },
      escalate: {
        type: "boolean",
        description: "True after repeated failures: tell the user, stop retrying.",
      },
      confirmation: {
        type: "object",
        properties: { token: { type: "string" }, expiresAt: { type: "string" }, preview: {} },
        required: ["token", "expiresAt"],
      },
      metadata: {
        type: "object",
        description: "tool, plugin, callId, durationMs, attempts, cached, truncated, source ...",
      },
    },
    required: ["status", "message", "metadata"],
    if: {
      properties: { status: { const: "success" }, metadata: { properties: { truncated: { const: false } } } },
      required: ["status", "metadata"],
    },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; an object, so never a thenable
    then: { properties: { data: output } },
  };
};
