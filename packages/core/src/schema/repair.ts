import * as z from "zod";
import { locateIssues, type ToolInputIssue, toToolInputIssue } from "./format-issues.js";
import { guardInput, type InputGuardProblem } from "./input-guard.js";
import { type Fix, fixesFor } from "./repair-issue.js";
import { buildSuggestion, DEFAULT_MAX_SUGGESTION } from "./suggestion.js";
import { unknownFields } from "./unknown-fields.js";
import { cloneJson, deleteAt, getAt, setAt } from "./value-path.js";
import type { AnySchema } from "./zod-introspect.js";

/** Options of `parseToolInput`. */
export interface ParseToolInputOptions {
  /** Repair common model mistakes before rejecting (default true). */
  readonly repair?: boolean;
  /** Longest corrected call quoted in `suggestion` (default 1000 characters); longer ones are described. */
  readonly maxSuggestionLength?: number;
}

/**
 * A valid (possibly repaired) input: zod's output, and one line per repair made (fields the schema
 * ignored included, as `extra: unknown field, ignored`).
 */
export interface ParsedToolInput<T> {
  readonly ok: true;
  readonly value: T;
  readonly repairs: ReadonlyArray<string>;
}

/** A rejected input: the problems by field, one line for the model, and how to call correctly. */
export interface RejectedToolInput {
  readonly ok: false;
  readonly issues: ReadonlyArray<ToolInputIssue>;
  readonly message: string;
  readonly suggestion: string;
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
const MAX_LISTED = 3;

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
  options: ParseToolInputOptions,
): RejectedToolInput {
  const located = locateIssues(issues, { schema, basePath: [], root: input });
  const worded = located.map(toToolInputIssue);
  const listed = worded.slice(0, MAX_LISTED).map((issue) => issue.message);
  if (worded.length > MAX_LISTED) listed.push(`and ${worded.length - MAX_LISTED} more`);
  return {
    ok: false,
    issues: worded,
    message: `Invalid input: ${listed.join("; ")}`,
    suggestion: buildSuggestion(
      schema,
      input,
      located,
      options.maxSuggestionLength ?? DEFAULT_MAX_SUGGESTION,
    ),
  };
}

/**
 * Validates a tool input from a model. A valid input costs one `safeParse`. Otherwise the common
 * model mistakes are repaired and recorded, then validated again: the whole input or a nested
 * object/array sent as a JSON string, no arguments at all (taken as `{}`), `null` for an optional
 * or defaulted field, a numeric string
 * for a number, `"true"`/`"false"` for a boolean, `[{ key, value }]` for a record (the OpenAI strict
 * encoding), and a single value for an array of it; fields the schema does not declare are dropped
 * and listed among the repairs. Anything else is rejected with issues naming each field by dotted
 * path, and a suggestion (a corrected call where one can be derived). Before any of this, an input
 * nested deeper than `MAX_INPUT_DEPTH` levels or holding control, bidirectional-override or
 * unpaired-surrogate characters is refused (`guardInput`).
 * Synchronous: schemas with async refinements are not supported.
 *
 * @example
 * const parsed = parseToolInput(searchDrugs.input, '{"query":"aspirin","limit":"5"}');
 * // { ok: true, value: { query: "aspirin", limit: 5 }, repairs: ["input: parsed the JSON string into an object", ...] }
 */
export function parseToolInput<S extends AnySchema>(
  schema: S,
  raw: unknown,
  options: ParseToolInputOptions = {},
): ParseToolInputResult<z.output<S>> {
  const guarded = guardInput(raw);
  if (guarded) return refuse(guarded);
  const first = z.safeParse(schema, raw);
  if (first.success) return { ok: true, value: first.data, repairs: ignored(schema, raw) };
  if (options.repair === false) return reject(schema, raw, first.error.issues, options);

  const repairs: string[] = [];
  let input: unknown = cloneJson(raw);
  let issues = first.error.issues;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const fixes = issues.flatMap((issue) => fixesFor(issue, { schema, basePath: [], root: input }) ?? []);
    let changed = false;
    for (const fix of fixes) {
      const result = apply(input, fix);
      input = result.root;
      if (result.changed) {
        changed = true;
        repairs.push(fix.note);
      }
    }
    if (!changed) break;
    // A repair may have parsed a JSON string into something deep or holding control characters.
    const problem = guardInput(input);
    if (problem) return refuse(problem);
    const next = z.safeParse(schema, input);
    if (next.success) return { ok: true, value: next.data, repairs: [...repairs, ...ignored(schema, input)] };
    issues = next.error.issues;
  }
  return reject(schema, input, issues, options);
}
