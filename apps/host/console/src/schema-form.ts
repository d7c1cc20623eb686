/** The parts of a JSON Schema the form reads (the API sends the whole schema as a plain object). */
interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
}

/** How a field of the form is edited. */
export type FieldKind = "text" | "number" | "integer" | "boolean" | "enum" | "json";

/** One top-level property of a tool's input schema, as a form field. */
export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
  /** The schema's type for a json field (shown as a hint). */
  hint?: string;
}

const typeOf = (s: JsonSchema): string | undefined => {
  if (typeof s.type === "string") return s.type;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== "null");
  const branch = s.anyOf?.find((b) => b.type !== "null");
  return branch ? typeOf(branch) : undefined;
};

/** The form's fields for an object schema: one per property, kind by its JSON Schema type. */
export const fieldsOf = (input: Readonly<Record<string, unknown>>): Field[] => {
  const schema = input as JsonSchema;
  return Object.entries(schema.properties ?? {}).map(([name, s]) => {
    const required = schema.required?.includes(name) ?? false;
    const description = s.description ?? s.title;
    const base = { name, required, ...(description ? { description } : {}) };
    if (s.enum?.every((v) => typeof v === "string"))
      return { ...base, kind: "enum", options: s.enum as string[] };
    const type = typeOf(s);
    if (type === "string") return { ...base, kind: "text" };
    if (type === "number") return { ...base, kind: "number" };
    if (type === "integer") return { ...base, kind: "integer" };
    if (type === "boolean") return { ...base, kind: "boolean" };
    return { ...base, kind: "json", hint: type === "array" ? "a JSON array" : "JSON" };
  });
};

/** The form's values as text, from an input object (an example, or the last call). */
export const valuesOf = (fields: Field[], input: unknown): Record<string, string> => {
  const obj = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = obj[f.name];
    if (v === undefined) out[f.name] = "";
    else if (f.kind === "json") out[f.name] = JSON.stringify(v);
    else out[f.name] = String(v);
  }
  return out;
};

/** The input object from the form's values; throws an Error naming the field on bad JSON or numbers. */
export const inputOf = (fields: Field[], values: Record<string, string>): Record<string, unknown> => {
  const input: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? "";
    if (f.kind === "boolean") {
      if (raw !== "") input[f.name] = raw === "true";
      continue;
    }
    if (raw.trim() === "") continue;
    if (f.kind === "number" || f.kind === "integer") {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new Error(`${f.name}: "${raw}" is not a number.`);
      input[f.name] = n;
    } else if (f.kind === "json") {
      try {
        input[f.name] = JSON.parse(raw);
      } catch {
        throw new Error(`${f.name}: not valid JSON (${f.hint ?? "JSON"} expected).`);
      }
    } else input[f.name] = raw;
  }
  return input;
};
