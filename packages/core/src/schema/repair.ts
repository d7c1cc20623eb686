import type * as z from "zod";
import { describeReceived, locateIssues, type ToolInputIssue, toToolInputIssue } from "./format-issues.js";
import { type Fix, fixesFor } from "./repair-issue.js";
import type { SchemaOutput, ToolSchema } from "./standard-schema.js";
import { decodeStrictEncoding } from "./strict-encoding.js";
import { buildSuggestion } from "./suggestion.js";
import { unknownFields } from "./unknown-fields.js";
import {
  guardInput,
  type InputGuardProblem,
  isZodSchema,
  type SchemaIssue,
  validateSync,
} from "./validate.js";
import { cloneJson, deleteAt, fieldLabel, formatPath, getAt, isPlainObject, setAt } from "./value-path.js";
import type { AnySchema } from "./zod-introspect.js";

/** Options of `parseToolInput`. */
export interface ParseToolInputOptions {
  /** Repair common model mistakes before rejecting (default true; zod schemas only). */
  readonly repair?: boolean;
}

/**
 * A valid (possibly repaired) input: the schema's output, and one line per repair made (fields a
 * zod schema ignored included, as `extra: unknown field, ignored`).
 */
export interface ParsedToolInput<T> {
  readonly ok: true;
  readonly value: T;
  readonly repairs: ReadonlyArray<string>;
}

/** The outcome of `parseToolInput`. */
export type ParseToolInputResult<T> = ParsedToolInput<T> | RejectedToolInput;

const ignored = (schema: AnySchema, input: unknown): string[] =>
  unknownFields(schema, input).map((path) => `${path}: unknown field, ignored`);

const refuse = (problem: InputGuardProblem): RejectedToolInput => ({
  ok: false,
  issues: [{ path: problem.path, expected: "plain JSON", received: "refused", message: problem.message }],
  message: problem.message,
  suggestion: problem.suggestion,
});

/** Each round fixes what the last validation reported; nested mistakes surface one level per round. */
const MAX_ROUNDS = 6;

function apply(root: unknown, fix: Fix): { root: unknown; changed: boolean } {
  if (fix.op === "delete") return { root, changed: deleteAt(root, fix.path) };
  if (fix.path.length > 0 && getAt(root, fix.path.slice(0, -1)) === undefined)
    return { root, changed: false };
  return { root: setAt(root, fix.path, fix.value), changed: true };
}

function reject(
  schema: AnySchema,
  input: unknown,
  issues: ReadonlyArray<z.core.$ZodIssue>,
): RejectedToolInput {
  const located = locateIssues(issues, { schema, basePath: [], root: input });
  const worded = located.map(toToolInputIssue);
  const suggestion = buildSuggestion(schema, input, located);
  return { ok: false, issues: worded, message: invalidInputMessage(worded), suggestion };
}

/** A non-zod input, refused: retried once with the OpenAI strict encoding undone, else rejected. */
function retryStandard<S extends ToolSchema>(
  schema: S,
  raw: unknown,
  issues: ReadonlyArray<SchemaIssue>,
  options: ParseToolInputOptions,
): ParseToolInputResult<SchemaOutput<S>> {
  const decoded = options.repair === false ? undefined : decodeStrictEncoding(schema, raw);
  if (!decoded) return rejectStandardIssues(raw, issues);
  const next = validateSync(schema, decoded.value);
  if (next.ok) return { ok: true, value: next.value, repairs: decoded.notes };
  return rejectStandardIssues(decoded.value, next.issues);
}

/** zod's issues (finalised `$ZodIssue`s) from a Standard Schema validation of a zod schema. */
const zodIssues = (issues: ReadonlyArray<SchemaIssue>) => issues.map((i) => i.raw as z.core.$ZodIssue);

/**
 * Validates a tool input from a model through the schema's `~standard.validate` (zod, valibot,
 * ArkType, effect Schema ...); a valid input costs one validation. Before anything, an input nested
 * deeper than `MAX_INPUT_DEPTH` levels or holding control, bidirectional-override or
 * unpaired-surrogate characters is refused (`guardInput`). A non-zod schema's input is retried
 * once with the OpenAI strict encoding undone (`null` for an optional field, `[{ key, value }]` for
 * a record), then rejected with the library's issues, each naming its field by dotted path.
 *
 * zod extras: the common model mistakes are repaired and recorded, then validated again: the whole
 * input or a nested object/array sent as a JSON string, no arguments at all (taken as `{}`), `null`
 * for an optional or defaulted field, a numeric string for a number, `"true"`/`"false"` for a
 * boolean, `[{ key, value }]` for a record (the OpenAI strict encoding), and a single value for an
 * array of it; fields the schema does not declare are dropped and listed among the repairs.
 * Anything else is rejected with issues naming each field by dotted path, and a suggestion (a
 * corrected call where one can be derived, "did you mean" for a near-miss key).
 * Synchronous: a schema whose validation is asynchronous throws.
 *
 * @example
 * const parsed = parseToolInput(searchDrugs.input, '{"query":"aspirin","limit":"5"}');
 * // { ok: true, value: { query: "aspirin", limit: 5 }, repairs: ["input: parsed the JSON string into an object", ...] }
 */
export function parseToolInput<S extends ToolSchema>(
  schema: S,
  raw: unknown,
  options: ParseToolInputOptions = {},
): ParseToolInputResult<SchemaOutput<S>> {
  const guarded = guardInput(raw);
  if (guarded) return refuse(guarded);
  const first = validateSync(schema, raw);
  if (!isZodSchema(schema))
    return first.ok
      ? { ok: true, value: first.value, repairs: [] }
      : retryStandard(schema, raw, first.issues, options);
  if (first.ok) return { ok: true, value: first.value, repairs: ignored(schema, raw) };
  if (options.repair === false) return reject(schema, raw, zodIssues(first.issues));

  const repairs: string[] = [];
  let input: unknown = cloneJson(raw);
  let issues = zodIssues(first.issues);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const fixes = issues.flatMap((issue) => fixesFor(issue, { schema, basePath: [], root: input }) ?? []);
    const before = repairs.length;
    for (const fix of fixes) {
      const result = apply(input, fix);
      input = result.root;
      if (result.changed) repairs.push(fix.note);
    }
    if (repairs.length === before) break;
    // A repair may have parsed a JSON string into something deep or holding control characters.
    const problem = guardInput(input);
    if (problem) return refuse(problem);
    const next = validateSync(schema, input);
    if (next.ok) return { ok: true, value: next.value, repairs: [...repairs, ...ignored(schema, input)] };
    issues = zodIssues(next.issues);
  }
  return reject(schema, input, issues);
}

/** Issues named in the message; the rest are counted. */
const MAX_LISTED = 3;

/** A rejected input: the problems by field, one line for the model, and how to call correctly. */
export interface RejectedToolInput {
  readonly ok: false;
  readonly issues: ReadonlyArray<ToolInputIssue>;
  readonly message: string;
  readonly suggestion: string;
}

/** `Invalid input: a; b; c and 2 more`: the first issues by field, for the envelope's message. */
const invalidInputMessage = (issues: ReadonlyArray<ToolInputIssue>): string => {
  const listed = issues.slice(0, MAX_LISTED).map((issue) => issue.message);
  if (issues.length > MAX_LISTED) listed.push(`and ${issues.length - MAX_LISTED} more`);
  return `Invalid input: ${listed.join("; ")}`;
};

/** True when the issue is about a key its (object) parent does not have. */
const isMissing = (input: unknown, issue: SchemaIssue): boolean => {
  const key = issue.path.at(-1);
  if (key === undefined) return false;
  const parent = getAt(input, issue.path.slice(0, -1));
  return isPlainObject(parent) && !Object.hasOwn(parent, key);
};

/** One Standard Schema issue worded for the model: the field by path, the library's message. */
const toIssue = (input: unknown, issue: SchemaIssue): ToolInputIssue => {
  const path = formatPath(issue.path);
  const at = fieldLabel(issue.path);
  const received = describeReceived(getAt(input, issue.path));
  const message = isMissing(input, issue)
    ? `${at}: required field is missing (${issue.message})`
    : `${at}: ${issue.message}`;
  return { path, expected: issue.message, received, message };
};

/**
 * Rejects an input a non-zod Standard Schema refused: each issue by dotted path with its library's
 * message, and a suggestion naming the fields to fix. (Repairs and corrected calls are zod extras:
 * they read zod's issue codes and schema tree.)
 */
const rejectStandardIssues = (input: unknown, issues: ReadonlyArray<SchemaIssue>): RejectedToolInput => {
  const worded = issues.map((issue) => toIssue(input, issue));
  const fields = [...new Set(worded.map((issue) => issue.path || "input"))];
  return {
    ok: false,
    issues: worded,
    message: invalidInputMessage(worded),
    suggestion: `Fix ${fields.join(", ")} as the tool's input schema describes, and call the tool again.`,
  };
};
