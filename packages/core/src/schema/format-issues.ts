import type * as z from "zod";
import { describeSchema, listValues } from "./describe-schema.js";
import { nearestIgnoringCase } from "./edit-distance.js";
import { formatPath, getAt, type ValuePath } from "./value-path.js";
import { type AnySchema, knownKeys, schemaAt, unionOptions } from "./zod-introspect.js";

/** One problem with a tool input, worded for the model that sent it. */
export interface ToolInputIssue {
  /** The field by dotted path (`filters.date_from`, `items[2].name`); "" for the input itself. */
  readonly path: string;
  /** What the field accepts: a type, enum values, bounds, a format. */
  readonly expected: string;
  /** What was sent: its type and a short preview, never the whole value. */
  readonly received: string;
  /** One line for the model: `limit: expected integer between 1 and 100, received number 150`. */
  readonly message: string;
}

/** Where an issue's relative path starts: the schema there, and the whole input. */
export interface RepairScope {
  readonly schema: AnySchema;
  readonly basePath: ValuePath;
  readonly root: unknown;
}

/** A zod issue resolved against the input: one per field, unions narrowed, unknown keys split. */
export interface LocatedIssue {
  readonly path: ValuePath;
  readonly issue:
    | z.core.$ZodIssue
    | {
        readonly code: "unknown_key";
        readonly allowed: ReadonlyArray<string>;
        /** The known field the key most likely meant (a small edit away), if any. */
        readonly closest?: string;
      };
  /** The schema of the field, when it can be found. */
  readonly schema: AnySchema | undefined;
  readonly value: unknown;
}

/** How far an option of a union got: a type mismatch at its top means the model did not mean it. */
function optionScore(errors: ReadonlyArray<z.core.$ZodIssue>): number {
  const mismatch = errors.some(
    (e) => e.path.length === 0 && (e.code === "invalid_type" || e.code === "invalid_value"),
  );
  return mismatch ? Number.POSITIVE_INFINITY : errors.length;
}

/** Resolves zod's issues into located ones (exported for the suggestion builder). */
export function locateIssues(issues: ReadonlyArray<z.core.$ZodIssue>, scope: RepairScope): LocatedIssue[] {
  const out: LocatedIssue[] = [];
  const base = getAt(scope.root, scope.basePath);
  for (const issue of issues) {
    const path = [...scope.basePath, ...issue.path];
    const schema = schemaAt(scope.schema, issue.path, base);
    if (issue.code === "unrecognized_keys") {
      const allowed = knownKeys(schema);
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        // The known field the key most likely meant: at most a third of its length (min. 2) edits away.
        const closest = nearestIgnoringCase(allowed, key, Math.max(2, Math.floor(key.length / 3)));
        out.push({
          path: keyPath,
          issue: { code: "unknown_key", allowed, ...(closest ? { closest } : {}) },
          schema: undefined,
          value: getAt(scope.root, keyPath),
        });
      }
      continue;
    }
    if (issue.code === "invalid_union" && issue.errors.length > 0 && issue.discriminator === undefined) {
      const options = unionOptions(schema ?? scope.schema);
      const scores = issue.errors.map(optionScore);
      const best = scores.indexOf(Math.min(...scores));
      const option = options?.[best];
      if (option && Number.isFinite(scores[best])) {
        out.push(...locateIssues(issue.errors[best]!, { schema: option, basePath: path, root: scope.root }));
        continue;
      }
    }
    out.push({ path, issue, schema, value: getAt(scope.root, path) });
  }
  return out;
}

function boundText(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === "too_big";
  const limit = Number(big ? issue.maximum : issue.minimum);
  const [inclusive, exclusive] = big ? ["at most", "less than"] : ["at least", "more than"];
  const op = issue.exact === true ? "exactly" : issue.inclusive ? inclusive : exclusive;
  if (issue.origin === "string") return `string of ${op} ${limit} characters`;
  if (issue.origin === "array" || issue.origin === "set") return `array of ${op} ${limit} items`;
  const symbol = big ? (issue.inclusive ? "<=" : "<") : issue.inclusive ? ">=" : ">";
  return `${issue.origin === "int" ? "integer" : "number"} ${symbol} ${limit}`;
}

/** What the field accepts, for a located issue. */
export function expectedOf(located: LocatedIssue): string {
  const { issue, schema } = located;
  switch (issue.code) {
    case "unknown_key":
      return issue.allowed.length ? `one of the known fields ${issue.allowed.join(", ")}` : "no such field";
    case "invalid_value":
      return listValues(issue.values);
    case "invalid_union":
      if (issue.discriminator !== undefined && "options" in issue && issue.options)
        return listValues(issue.options);
      return schema ? describeSchema(schema) : "one of the allowed shapes";
    case "not_multiple_of":
      return `a multiple of ${issue.divisor}`;
    case "too_big":
    case "too_small": {
      const described = schema ? describeSchema(schema) : "";
      return /\d/.test(described) ? described : boundText(issue);
    }
    case "invalid_key":
      return `valid keys (${issue.issues.map((inner) => inner.message).join("; ")})`;
    case "custom":
      return issue.message;
    case "invalid_type":
      return schema ? describeSchema(schema) : issue.expected === "int" ? "integer" : issue.expected;
    case "invalid_format":
      return schema ? describeSchema(schema) : `string in ${issue.format} format`;
    default:
      return schema ? describeSchema(schema) : issue.message;
  }
}

/** Words one located issue for the model. */
export function toToolInputIssue(located: LocatedIssue): ToolInputIssue {
  const path = formatPath(located.path);
  const at = path || "input";
  const expected = expectedOf(located);
  const received = describeReceived(located.value);
  const { issue } = located;
  let message: string;
  if (issue.code === "unknown_key") {
    message = issue.allowed.length
      ? `${at}: unknown field; known fields are ${issue.allowed.join(", ")}${issue.closest ? `; did you mean "${issue.closest}"?` : ""}`
      : `${at}: unknown field`;
  } else if (issue.code === "invalid_type" && located.value === undefined) {
    message = `${at}: required field is missing (expected ${expected})`;
  } else if (issue.code === "custom") {
    message = `${at}: ${issue.message} (received ${received})`;
  } else if (issue.code === "invalid_key") {
    message = `${at}: invalid key (${issue.issues.map((inner) => inner.message).join("; ")})`;
  } else {
    message = `${at}: expected ${expected}, received ${received}`;
  }
  return { path, expected, received, message };
}

const MAX_TEXT = 40;
const MAX_KEYS = 5;

/**
 * What a model sent, in a few words and never the whole value: `string "5abc"`, `number 150`,
 * `array of 3 items`, `object with keys a, b`, `nothing` for a missing field.
 */
export function describeReceived(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const text = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
    return `string ${JSON.stringify(text)}${value.length > MAX_TEXT ? ` (${value.length} characters)` : ""}`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return `${typeof value} ${String(value)}`;
  }
  if (Array.isArray(value))
    return value.length === 0
      ? "empty array"
      : `array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return "empty object";
    const shown = keys.slice(0, MAX_KEYS).join(", ");
    return `object with keys ${shown}${keys.length > MAX_KEYS ? `, … (${keys.length} keys)` : ""}`;
  }
  return typeof value;
}
