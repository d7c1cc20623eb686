import { envelopeSchema } from "@quiver/core";
import { z } from "zod";

type Json = Record<string, unknown>;

/** Keywords that document a schema without constraining it: left out of the served output schema. */
const DOCUMENTATION = new Set(["$schema", "$id", "title", "description", "examples", "default", "$comment"]);
/** zod's bounds for a safe integer: true of every JSON number a tool returns, so not worth the bytes. */
const SAFE_INT = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * A schema made light and portable, for validation rather than documentation: documentation
 * keywords, zod's safe-integer bounds, `additionalProperties: false` and a `type` beside an `enum`
 * or `const` dropped; a `type` array (`["string", "null"]`) split into `anyOf` branches of one type
 * each (some clients map schemas onto single-type dialects); a subschema that constrains nothing
 * (`{}`) dropped from `properties`/`additionalProperties`, where leaving it out means the same.
 */
export const lightSchema = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(lightSchema);
  if (typeof node !== "object" || node === null) return node;
  const source = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (DOCUMENTATION.has(key)) continue;
    if ((key === "maximum" || key === "minimum") && SAFE_INT.has(value as number)) continue;
    if (key === "type" && ("enum" in source || "const" in source)) continue;
    if (key === "properties" && typeof value === "object" && value !== null) {
      const props: Json = {};
      for (const [name, sub] of Object.entries(value as Json)) {
        const light = lightSchema(sub);
        if (!isEmpty(light)) props[name] = light;
      }
      out.properties = props;
    } else if (key === "additionalProperties") {
      // `false` only forbids fields a tool never sends; `{}` is the default.
      if (value !== false && !isEmpty(lightSchema(value))) out[key] = lightSchema(value);
    } else out[key] = lightSchema(value);
  }
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    return { ...rest, anyOf: (type as string[]).map((t) => ({ type: t })) };
  }
  return out;
};

const isEmpty = (schema: unknown): boolean =>
  typeof schema === "object" && schema !== null && !Array.isArray(schema) && Object.keys(schema).length === 0;

/**
 * The envelope around a tool's data, briefly, derived once from core's zod definition (the one
 * source): the fields every envelope has and the error, each by its type (and the statuses), an
 * object field by the keys it always has. The optional next steps (instruction, suggestion,
 * guidance, escalate, confirmation) stay allowed, untyped. `data` is typed in `then` below.
 */
const ENVELOPE: Json = (() => {
  const full = z.toJSONSchema(envelopeSchema, { target: "draft-2020-12", io: "output" }) as Json & {
    properties: Record<string, Json>;
    required: string[];
  };
  const brief = (field: Json): Json =>
    Object.fromEntries(
      Object.entries(field).filter(([k]) => k === "type" || k === "enum" || k === "required"),
    );
  const properties = Object.fromEntries(
    Object.entries(full.properties)
      .filter(([name]) => name === "error" || full.required.includes(name))
      .map(([name, field]) => [name, lightSchema(brief(field))] as const)
      .filter(([, field]) => !isEmpty(field)),
  );
  return { type: "object", properties, required: full.required };
})();

/**
 * The `outputSchema` served in tools/list: the result envelope (what `structuredContent` holds),
 * brief, with `data` typed precisely by the tool's own output schema when the call succeeded and
 * nothing was truncated. On other statuses `data` is free-form (partial data, a confirmation
 * preview), so a client that validates `structuredContent` against this schema never rejects a
 * genuine envelope.
 */
export const envelopeOutputSchema = (toolOutput: Json): Json => ({
  ...ENVELOPE,
  description: "On success, data is the output; else read message, error, suggestion.",
  if: {
    properties: { status: { const: "success" }, metadata: { properties: { truncated: { const: false } } } },
    required: ["status", "metadata"],
  },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; an object, so never a thenable
  then: { properties: { data: lightSchema(toolOutput) } },
});
