import type { ToolInputIssue } from "./format-issues.js";
import { describeReceived } from "./preview.js";
import type { SchemaIssue } from "./validate.js";
import { formatPath, getAt, isPlainObject } from "./value-path.js";

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
export const invalidInputMessage = (issues: ReadonlyArray<ToolInputIssue>): string => {
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
  const at = path || "input";
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
export const rejectStandardIssues = (
  input: unknown,
  issues: ReadonlyArray<SchemaIssue>,
): RejectedToolInput => {
  const worded = issues.map((issue) => toIssue(input, issue));
  const fields = [...new Set(worded.map((issue) => issue.path || "input"))];
  return {
    ok: false,
    issues: worded,
    message: invalidInputMessage(worded),
    suggestion: `Fix ${fields.join(", ")} as the tool's input schema describes, and call the tool again.`,
  };
};
