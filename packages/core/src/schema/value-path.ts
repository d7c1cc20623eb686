/** A location inside a tool input: object keys and array indices, as zod reports them. */
export type ValuePath = ReadonlyArray<PropertyKey>;

/** True for a plain JSON object (not an array, not null, not a class instance such as Date). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Copies plain objects and arrays deeply; every other value is shared. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[key] = cloneJson(child);
    return out as T;
  }
  return value;
}

/** The value at `path`, or undefined when any step is missing. */
export function getAt(root: unknown, path: ValuePath): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Sets the value at `path` in place and returns the (possibly new) root. Missing intermediate
 * objects are created; returns the root unchanged when a step is not a container.
 */
export function setAt(root: unknown, path: ValuePath, value: unknown): unknown {
  if (path.length === 0) return value;
  let current = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (typeof current !== "object" || current === null) return root;
    const container = current as Record<PropertyKey, unknown>;
    const key = path[i]!;
    if (container[key] === undefined) container[key] = typeof path[i + 1] === "number" ? [] : {};
    current = container[key];
  }
  if (typeof current === "object" && current !== null)
    (current as Record<PropertyKey, unknown>)[path.at(-1)!] = value;
  return root;
}

/** Deletes the object key at `path` in place; true when something was deleted. */
export function deleteAt(root: unknown, path: ValuePath): boolean {
  const parent = getAt(root, path.slice(0, -1));
  const key = path.at(-1);
  if (key === undefined || !isPlainObject(parent) || typeof key !== "string" || !(key in parent))
    return false;
  delete parent[key];
  return true;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A path as a model reads it in a sentence: {@link formatPath}, or "input" for the root. */
export const fieldLabel = (path: ValuePath): string => formatPath(path) || "input";

/** A path as a model reads it: `filters.date_from`, `items[2].name`, `headers["x-id"]`; "" for the root. */
export function formatPath(path: ValuePath): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && IDENTIFIER.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
