import * as z from "zod";
import { describeReceived, type RepairScope } from "./format-issues.js";
import { fieldLabel, getAt, isPlainObject, type ValuePath } from "./value-path.js";
import {
  type AnySchema,
  defOf,
  hasDefault,
  isOptionalField,
  schemaAt,
  unionOptions,
  unwrap,
} from "./zod-introspect.js";

/** One change to the input that turns a common model mistake into what the schema expects. */
export type Fix =
  | { readonly op: "set"; readonly path: ValuePath; readonly value: unknown; readonly note: string }
  | { readonly op: "delete"; readonly path: ValuePath; readonly note: string };

/** A finite decimal number written as a string: "5", "-0.5", "1e3"; not "5abc", "", "0x10", "Infinity". */
const NUMERIC = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const CONTAINERS: ReadonlySet<string> = new Set(["object", "record", "array", "tuple"]);

function isEntry(value: unknown): value is { key: string | number; value: unknown } {
  if (!isPlainObject(value) || !("key" in value) || !("value" in value) || Object.keys(value).length !== 2)
    return false;
  return typeof value.key === "string" || typeof value.key === "number";
}

/** The object or array a JSON string holds, when it holds the kind `expected` names. */
function parseJsonContainer(text: string, expected: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const wantsArray = expected === "array" || expected === "tuple";
  return (wantsArray ? Array.isArray(parsed) : isPlainObject(parsed)) ? parsed : undefined;
}

/** `null` sent for an optional or defaulted object field: drop the key, as if it were not sent. */
function fixNull(relPath: ValuePath, scope: RepairScope): Fix | undefined {
  const path = [...scope.basePath, ...relPath];
  const key = path.at(-1);
  if (getAt(scope.root, path) !== null || typeof key !== "string") return undefined;
  if (!isPlainObject(getAt(scope.root, path.slice(0, -1)))) return undefined;
  const field = schemaAt(scope.schema, relPath, getAt(scope.root, scope.basePath));
  if (!field || !isOptionalField(field)) return undefined;
  const outcome = hasDefault(field) ? "the default applies" : "left out";
  return {
    op: "delete",
    path,
    note: `${fieldLabel(path)}: null for an optional field, treated as absent (${outcome})`,
  };
}

function fixInvalidType(expected: string, relPath: ValuePath, scope: RepairScope): Fix | undefined {
  const path = [...scope.basePath, ...relPath];
  const value = getAt(scope.root, path);
  const at = fieldLabel(path);
  const set = (value: unknown, note: string): Fix => ({ op: "set", path, value, note });
  const empty = value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  if (path.length === 0 && expected === "object" && empty) {
    return set({}, "input: no arguments sent, treated as {}");
  }

  if (typeof value === "string" && CONTAINERS.has(expected)) {
    const parsed = parseJsonContainer(value, expected);
    if (parsed !== undefined) {
      const kind = Array.isArray(parsed) ? "array" : "object";
      return set(parsed, `${at}: parsed the JSON string into an ${kind}`);
    }
  }

  if (
    typeof value === "string" &&
    (expected === "number" || expected === "int") &&
    NUMERIC.test(value.trim())
  ) {
    const number = Number(value.trim());
    return set(number, `${at}: converted ${describeReceived(value)} to number ${number}`);
  }

  if (typeof value === "string" && expected === "boolean" && /^(?:true|false)$/i.test(value.trim())) {
    const bool = value.trim().toLowerCase() === "true";
    return set(bool, `${at}: converted ${describeReceived(value)} to boolean ${bool}`);
  }

  if (expected === "record" && Array.isArray(value) && value.every(isEntry)) {
    const object = Object.fromEntries(value.map((entry) => [String(entry.key), entry.value]));
    return set(object, `${at}: converted a list of {key, value} entries into an object`);
  }

  if (expected === "array" && value !== undefined && !Array.isArray(value)) {
    const field = schemaAt(scope.schema, relPath, getAt(scope.root, scope.basePath));
    const def = field ? defOf(unwrap(field).schema) : undefined;
    if (def?.type === "array" && z.safeParse(def.element as AnySchema, value).success) {
      return set([value], `${at}: wrapped the single value in an array`);
    }
  }
  return undefined;
}

/**
 * The fixes that resolve one zod issue, or undefined when the issue is not a known model mistake.
 * A union issue is fixed only when every issue of one of its options is fixable.
 */
export function fixesFor(issue: z.core.$ZodIssue, scope: RepairScope): Fix[] | undefined {
  const dropNull = fixNull(issue.path, scope);
  if (dropNull) return [dropNull];
  if (issue.code === "invalid_type") {
    const fix = fixInvalidType(issue.expected, issue.path, scope);
    return fix ? [fix] : undefined;
  }
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const options = unionOptions(
      schemaAt(scope.schema, issue.path, getAt(scope.root, scope.basePath)) ?? scope.schema,
    );
    if (!options || options.length !== issue.errors.length) return undefined;
    const basePath = [...scope.basePath, ...issue.path];
    for (const [i, errors] of issue.errors.entries()) {
      const branch: RepairScope = { schema: options[i]!, basePath, root: scope.root };
      const fixes = errors.map((error) => fixesFor(error, branch));
      if (fixes.every((fix) => fix !== undefined)) return fixes.flat();
    }
  }
  return undefined;
}
