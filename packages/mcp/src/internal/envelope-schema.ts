import { envelopeSchema } from "@quiver/core";
import { z } from "zod";

type Json = Record<string, unknown>;

/** The envelope as JSON Schema, derived once from core's zod definition (the one source). */
const ENVELOPE_JSON_SCHEMA: Json = (() => {
  const { $schema: _drop, ...schema } = z.toJSONSchema(envelopeSchema, {
    target: "draft-2020-12",
    io: "output",
    unrepresentable: "any",
  }) as Json;
  return schema;
})();

/**
 * The `outputSchema` served in tools/list: the result envelope (what `structuredContent` holds), with
 * `data` typed by the tool's own output schema when the call succeeded and nothing was truncated.
 * On other statuses `data` is free-form (partial data, a confirmation preview), so a client that
 * validates `structuredContent` against this schema never rejects a genuine envelope.
 */
export const envelopeOutputSchema = (toolOutput: Json): Json => {
  const { $schema: _drop, ...output } = toolOutput;
  return {
    ...ENVELOPE_JSON_SCHEMA,
    description:
      "The Quiver result envelope. On status success, data matches the tool's output schema; otherwise read message, error, suggestion and guidance.",
    if: {
      properties: { status: { const: "success" }, metadata: { properties: { truncated: { const: false } } } },
      required: ["status", "metadata"],
    },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; an object, so never a thenable
    then: { properties: { data: output } },
  };
};
