import * as z from "zod";
import { inlineRefs } from "./inline-refs.js";
import type { JsonSchema } from "./json-schema-types.js";
import { SchemaExportError } from "./schema-export-error.js";
import { fieldOf } from "./subschemas.js";

/** The formats JSON Schema 2020-12 defines; others (zod's "cuid", "starts_with" ...) are zod-only. */
const STANDARD_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uuid",
  "uri-template",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

/**
 * Trims what zod adds for its own validation but a model does not need: the long regular expression
 * behind a standard format (`format: "date"` says it), a zod-only format name when a pattern says
 * the same, and the ±2^53 bounds of `z.int()`.
 */
function trimNoise(zodSchema: z.core.$ZodType, json: JsonSchema): void {
  const def = zodSchema._zod.def as { pattern?: unknown };
  if (typeof json.format === "string" && typeof json.pattern === "string") {
    if (!STANDARD_FORMATS.has(json.format)) delete json.format;
    else if (def.pattern instanceof RegExp && def.pattern.source === json.pattern) delete json.pattern;
  }
  if (json.type === "integer") {
    if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
    if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  }
}

/**
 * Converts a tool's zod input schema to self-contained JSON Schema 2020-12: the input side (fields
 * with defaults are optional and keep `default`), descriptions kept, `$ref`s inlined, no `$schema`,
 * `omit`ted top-level properties removed. The per-target exporters start from this.
 */
export function baseJsonSchema(schema: z.core.$ZodType, omit: ReadonlyArray<string> = []): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    reused: "inline",
    cycles: "ref",
    unrepresentable: ({ path, message }) => {
      const field = fieldOf(path);
      throw new SchemaExportError(
        field,
        `Cannot export the input schema: field "${field || "(root)"}" has no JSON form (${message}). ` +
          "Tool inputs must be JSON: use z.iso.datetime() rather than z.date(), a string rather than z.bigint().",
      );
    },
    override: ({ zodSchema, jsonSchema }) => trimNoise(zodSchema, jsonSchema as JsonSchema),
  }) as JsonSchema;

  const { $schema: _schema, ...root } = inlineRefs(generated);
  if (root.type !== "object") {
    throw new SchemaExportError(
      "",
      "Cannot export the input schema: a tool's input must be a z.object, not a union or a scalar.",
    );
  }
  if (omit.length > 0) {
    const properties = { ...root.properties };
    for (const name of omit) delete properties[name];
    root.properties = properties;
    if (root.required) root.required = root.required.filter((name) => !omit.includes(name));
  }
  return root;
}
