import { z } from "zod";

type Json = Record<string, unknown>;

/**
 * A remote tool's JSON Schema as a zod object, via zod 4's `z.fromJSONSchema`, so the runtime
 * validates input (with defaults) before the remote sees it and the catalog exports the schema
 * again. A schema zod cannot convert (or a non-object root) becomes a permissive object carrying the
 * original as its description, and the remote server validates instead.
 */
export const remoteInputSchema = (schema: Json | undefined): z.ZodObject => {
  if (schema) {
    try {
      const converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
      if (converted instanceof z.ZodObject) return converted;
    } catch {
      /* fall through to the permissive object */
    }
  }
  return z
    .looseObject({})
    .describe(
      schema ? `Arguments as this JSON Schema: ${JSON.stringify(schema)}` : "Arguments for the tool.",
    );
};

/** Output of a remote tool that declared no output schema: its text and any other content blocks. */
export const contentOutput = z.object({
  text: z.string().describe("The text content blocks of the result, joined by new lines."),
  content: z
    .array(z.looseObject({ type: z.string() }))
    .describe("Content blocks other than text (images, audio, resource links, embedded resources)."),
});

/** The zod output schema of a remote tool: its declared output schema, else text plus content. */
export const remoteOutputSchema = (schema: Json | undefined): z.ZodType => {
  if (!schema) return contentOutput;
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.looseObject({});
  }
};
