import type { StandardSchemaV1 } from "@standard-schema/spec";
import type * as z from "zod";
import { fieldLabel, formatPath, type ValuePath } from "./value-path.js";

// Checking a value for a tool: what no schema checks (`guardInput`), then the schema's own
// validation (`validateSync`), the two halves of every input check and the output check.

/** How deep a tool input may nest (objects and arrays); tool schemas are a few levels deep. */
export const MAX_INPUT_DEPTH = 64;

/**
 * Characters a tool input may not hold, in keys or values: C0 controls other than tab, line feed and
 * carriage return, DEL and the C1 controls, and the bidirectional embedding, override and isolate
 * characters (U+202A–U+202E, U+2066–U+2069) that make text read differently from what it holds.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
/** A UTF-16 surrogate without its pair: not a character at all (JSON's `"\ud800"`). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why an input was refused before validation. */
export interface InputGuardProblem {
  /** The field by dotted path ("" for the input itself). */
  readonly path: string;
  /** One line for the model. */
  readonly message: string;
  /** How to call correctly. */
  readonly suggestion: string;
}

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** `String.prototype.isWellFormed` (ES2024, Node 20): false when the text holds a lone surrogate. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

const badCharacter = (text: string): string | undefined => {
  // The common case, a clean string, is one regex test and one native scan; the regexes that name
  // the character run only for a string that has one.
  if (!FORBIDDEN.test(text) && isWellFormed(text)) return undefined;
  const control = FORBIDDEN.exec(text);
  if (control) return codePoint(control[0]);
  const lone = LONE_SURROGATE.exec(text);
  return lone ? `${codePoint(lone[0])} (an unpaired surrogate)` : undefined;
};

/**
 * Checks what no schema should have to: nesting at most `maxDepth` levels, and no control,
 * bidirectional-override or unpaired-surrogate characters in any key or string. Iterative, so an
 * input nested 100,000 levels deep is refused without exhausting the stack.
 *
 * @example
 * guardInput({ query: "a\u0000b" })
 * // { path: "query", message: "query: contains the control character U+0000 ...", suggestion: "..." }
 */
export function guardInput(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputGuardProblem | undefined {
  // Paths are built only for the problem reported: each entry points at its parent.
  const stack: Frame[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (typeof current === "string") {
      const bad = badCharacter(current);
      if (bad) return characterProblem(pathOf(frame), bad);
      continue;
    }
    // Objects and arrays are walked; any other object (a Date, a Map) has no own enumerable keys a
    // schema reads, so walking its keys finds nothing to refuse.
    if (typeof current !== "object" || current === null) continue;
    if (frame.depth >= maxDepth) {
      return problemAt(pathOf(frame), (at) => [
        `Invalid input: ${at} is nested deeper than the limit of ${maxDepth} levels of objects and arrays.`,
        `Send the input flat, as the tool's schema describes it (at most ${maxDepth} levels deep).`,
      ]);
    }
    const depth = frame.depth + 1;
    if (Array.isArray(current)) {
      for (const [key, item] of current.entries()) stack.push({ value: item, key, parent: frame, depth });
      continue;
    }
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      const bad = badCharacter(key);
      if (bad) return characterProblem(pathOf(frame), bad, "a field name in ");
      stack.push({ value: (current as Record<string, unknown>)[key], key, parent: frame, depth });
    }
  }
  return undefined;
}

interface Frame {
  readonly value: unknown;
  readonly key: string | number | undefined;
  readonly parent: Frame | undefined;
  readonly depth: number;
}

const pathOf = (frame: Frame): ValuePath => {
  const path: Array<string | number> = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) path.push(f.key);
  return path.reverse();
};

const problemAt = (path: ValuePath, word: (at: string) => [string, string]): InputGuardProblem => {
  const [message, suggestion] = word(fieldLabel(path));
  return { path: formatPath(path), message, suggestion };
};

const characterProblem = (path: ValuePath, bad: string, what = ""): InputGuardProblem =>
  problemAt(path, (at) => [
    `Invalid input: ${what}${at} contains the character ${bad}; control and bidirectional-override characters are refused.`,
    `Send ${at} as plain text, without control characters (tab and newline are fine).`,
  ]);

/**
 * A zod 4 schema, from any copy of zod 4 (a plugin may bring its own). zod before 4.2 has no
 * `~standard.jsonSchema`; Quiver exports every zod schema with `z.toJSONSchema` anyway.
 */
export type ZodSchema = z.core.$ZodType;

/** True for a zod 4 schema (any copy): the repairs, suggestions and `z.toJSONSchema` export apply. */
export const isZodSchema = (schema: unknown): schema is ZodSchema =>
  typeof schema === "object" && schema !== null && "_zod" in schema;

/** One issue of a failed validation, its path flattened to keys. */
export interface SchemaIssue {
  readonly path: ValuePath;
  readonly message: string;
  /** The library's own issue (a `$ZodIssue` for zod). */
  readonly raw: StandardSchemaV1.Issue;
}

/** The outcome of `validateSync`. */
export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: ReadonlyArray<SchemaIssue> };

const issuePath = (issue: StandardSchemaV1.Issue): ValuePath =>
  (issue.path ?? []).map((segment) =>
    typeof segment === "object" && segment !== null ? segment.key : segment,
  );

/**
 * Validates through the schema's `~standard.validate`. Tool inputs and outputs are checked
 * synchronously: a schema whose validation is asynchronous (an async refinement; zod also turns a
 * check that throws into a rejected promise) is a defect and throws.
 */
export const validateSync = <S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
): Validated<StandardSchemaV1.InferOutput<S>> => {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) {
    result.catch(() => {}); // nobody awaits it: the schema is refused below
    throw new TypeError(
      `A tool schema (${schema["~standard"].vendor}) validated asynchronously (an async refinement, or a check that threw); tool schemas must validate synchronously.`,
    );
  }
  if (!result.issues) return { ok: true, value: result.value as StandardSchemaV1.InferOutput<S> };
  return {
    ok: false,
    issues: result.issues.map((raw) => ({ path: issuePath(raw), message: raw.message, raw })),
  };
};
