import { describeSchema } from "./describe-schema.js";
import { nearestIgnoringCase } from "./edit-distance.js";
import { expectedOf, type LocatedIssue } from "./format-issues.js";
import { cloneJson, deleteAt, fieldLabel, getAt, isPlainObject, setAt } from "./value-path.js";
import {
  type AnySchema,
  checksOf,
  defOf,
  isIntegerCheck,
  isOptionalField,
  unwrap,
} from "./zod-introspect.js";

/** Longest corrected call shown as JSON; past it the suggestion describes the fields instead. */
const MAX_SUGGESTION = 1_000;

const placeholder = (located: LocatedIssue): string =>
  `<${fieldLabel(located.path)}: ${expectedOf(located)}>`;

/** The value that fixes one located issue, or a placeholder naming what to send. */
function correction(located: LocatedIssue): { value: unknown } | { delete: true; renameTo?: string } {
  const { issue, value, schema } = located;
  switch (issue.code) {
    case "unknown_key":
      return issue.closest ? { delete: true, renameTo: issue.closest } : { delete: true };
    case "invalid_value":
      return { value: nearestIgnoringCase(issue.values, value) ?? placeholder(located) };
    case "invalid_union":
      if ("options" in issue && issue.options?.length)
        return { value: nearestIgnoringCase(issue.options, value) };
      break;
    case "not_multiple_of":
      if (typeof value === "number") return { value: Math.round(value / issue.divisor) * issue.divisor };
      break;
    case "too_big":
    case "too_small": {
      const big = issue.code === "too_big";
      const limit = Number(big ? issue.maximum : issue.minimum);
      if (typeof value === "number") {
        if (issue.inclusive) return { value: limit };
        const integer = schema !== undefined && checksOf(unwrap(schema).schema).some(isIntegerCheck);
        if (integer || issue.origin === "int") return { value: big ? limit - 1 : limit + 1 };
      }
      if (big && typeof value === "string") return { value: value.slice(0, limit) };
      if (big && Array.isArray(value)) return { value: value.slice(0, limit) };
      break;
    }
  }
  return { value: placeholder(located) };
}

/** A placeholder object for a root that is not an object: every required field as `<name: type>`. */
function skeleton(schema: AnySchema): Record<string, unknown> {
  const def = defOf(unwrap(schema).schema);
  const fields = def.type === "object" ? Object.entries(def.shape as Record<string, AnySchema>) : [];
  const required = fields.filter(([, field]) => !isOptionalField(field));
  return Object.fromEntries(required.map(([name, field]) => [name, `<${name}: ${describeSchema(field)}>`]));
}

/** "Send an object with: query (string, required), limit (integer between 1 and 100) ...". */
function describeFields(schema: AnySchema, located: ReadonlyArray<LocatedIssue>): string {
  const fix = located.map((l) => `${fieldLabel(l.path)} (${expectedOf(l)})`).join("; ");
  const def = defOf(unwrap(schema).schema);
  if (def.type !== "object") return `Fix ${fix}.`;
  const fields = Object.entries(def.shape as Record<string, AnySchema>).map(
    ([name, field]) => `${name} (${describeSchema(field, 1)}${isOptionalField(field) ? "" : ", required"})`,
  );
  return `Fix ${fix}. The tool takes an object with: ${fields.join(", ")}.`;
}

/**
 * A corrected call the model can send back: the input with unknown keys dropped (or renamed to the
 * known field a small edit away), out-of-range
 * numbers clamped, enum values snapped to the nearest allowed one and missing or malformed fields
 * replaced by `<field: type>` placeholders. When the call would be too long to repeat, a
 * description of what to send instead.
 */
export function buildSuggestion(
  schema: AnySchema,
  input: unknown,
  located: ReadonlyArray<LocatedIssue>,
): string {
  let corrected: unknown = isPlainObject(input) ? cloneJson(input) : skeleton(schema);
  let placeholders = !isPlainObject(input);
  for (const issue of located) {
    if (issue.path.length === 0) continue;
    const fix = correction(issue);
    if ("delete" in fix) {
      deleteAt(corrected, issue.path);
      // A near-miss key (`author` for `authors`) moves its value to the field it meant, unless set.
      const to = fix.renameTo ? [...issue.path.slice(0, -1), fix.renameTo] : undefined;
      if (to && getAt(corrected, to) === undefined) corrected = setAt(corrected, to, issue.value);
      continue;
    }
    if (typeof fix.value === "string" && fix.value.startsWith("<") && fix.value === placeholder(issue))
      placeholders = true;
    corrected = setAt(corrected, issue.path, fix.value);
  }
  const json = JSON.stringify(corrected);
  if (json === undefined || json.length > MAX_SUGGESTION) return describeFields(schema, located);
  const note = placeholders ? " Replace each <field: type> placeholder with a real value." : "";
  return `Call the tool again with: ${json}.${note}`;
}
