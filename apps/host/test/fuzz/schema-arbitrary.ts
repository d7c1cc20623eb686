import fc from "fast-check";

/** The part of JSON Schema (draft 2020-12, as the catalog exports it for MCP) the generator reads. */
export interface JsonSchema {
  readonly type?: string | ReadonlyArray<string>;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: ReadonlyArray<string>;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly enum?: ReadonlyArray<unknown>;
  readonly const?: unknown;
  readonly anyOf?: ReadonlyArray<JsonSchema>;
  readonly oneOf?: ReadonlyArray<JsonSchema>;
  readonly default?: unknown;
}

const MAX_DEPTH = 6;

const stringFor = (s: JsonSchema): fc.Arbitrary<string> => {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? 40, Math.max(minLength, 40));
  if (s.format === "date") {
    return fc
      .date({ min: new Date("1950-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  }
  if (s.format === "date-time") {
    return fc
      .date({ min: new Date("1950-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (s.format === "uri" || s.format === "url") return fc.webUrl();
  if (s.format === "email") return fc.emailAddress();
  if (s.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(s.pattern))
        .filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Number.MAX_SAFE_INTEGER));
    } catch {
      /* a pattern JavaScript cannot compile: plain strings */
    }
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.constantFrom("semaglutide", "metaheuristicas", "P04637", "next.js", "genetic algorithms"),
    fc.string({ minLength, maxLength, unit: "grapheme" }),
  );
};

const numberFor = (s: JsonSchema, integer: boolean): fc.Arbitrary<number> => {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) })
    : fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
};

/**
 * Values a JSON Schema describes (enums, consts, bounds, patterns, required and optional properties,
 * unions), as fast-check arbitraries. Mostly valid: constraints JSON Schema cannot express (zod
 * refinements such as "give this or that, not both") are not kept, which only adds near-valid cases.
 *
 * @example
 * fc.sample(validFor({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }), 3)
 */
export const validFor = (schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> => {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((s) => validFor(s, depth + 1)));
  const types = typeof schema.type === "string" ? [schema.type] : (schema.type ?? []);
  if (types.length > 1) return fc.oneof(...types.map((type) => validFor({ ...schema, type }, depth)));
  switch (types[0]) {
    case "string":
      return stringFor(schema);
    case "integer":
      return numberFor(schema, true);
    case "number":
      return numberFor(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      if (depth > MAX_DEPTH) return fc.constant([]);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? 4, Math.max(minLength, 4));
      return fc.array(validFor(schema.items ?? {}, depth + 1), { minLength, maxLength });
    }
    case "object": {
      if (depth > MAX_DEPTH) return fc.constant({});
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties)) record[key] = validFor(value, depth + 1);
      const required = (schema.required ?? []).filter((k) => k in properties);
      return fc.record(record, { requiredKeys: required });
    }
    default:
      return depth > MAX_DEPTH ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
};

/** A path to a value inside an input: object keys and array indices. */
type Path = ReadonlyArray<string | number>;

const pathsOf = (value: unknown, path: Path = []): Path[] => {
  const out: Path[] = [path];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...pathsOf(v, [...path, i]));
  } else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...path, k]));
  return out;
};

const clone = (value: unknown): unknown => (value === undefined ? undefined : structuredClone(value));

/** Replaces (or, with `undefined`, deletes) the value at `path`; the root is replaced for `[]`. */
const setAt = (root: unknown, path: Path, next: unknown): unknown => {
  if (path.length === 0) return next;
  const copy = clone(root) as Record<string | number, unknown>;
  let current = copy;
  for (const key of path.slice(0, -1)) current = current[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (next === undefined && !Array.isArray(current)) delete current[last];
  else current[last] = next;
  return copy;
};

const getAt = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], root);

/** A value as a string: "5" for 5, JSON for an object (fast-check's objects may lack a prototype). */
const text = (value: unknown): string =>
  typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);

/** A value nested `levels` deep: `{"a":[{"a":[…]}]}`. */
export const nested = (levels: number): unknown => {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** Characters a careless client or a hostile one sends: controls, bidi overrides, lone surrogates. */
const HOSTILE = ["\u0000", "\u0007", "\u001b[31m", "\u202e", "\u2066", "\ud800", "\u0085", "\ufeff", "\r\n"];

/** The near-valid changes applied to a valid value, each naming what it does (for the counterexample). */
const mutations = (
  depths: ReadonlyArray<number>,
): ReadonlyArray<{
  readonly name: string;
  readonly apply: (value: unknown, path: Path, r: number) => unknown;
}> => [
  {
    name: "wrong type",
    apply: (v, p, r) =>
      setAt(v, p, [42, "42", true, null, [], {}, "true", -1.5e308, "", [getAt(v, p)]][r % 10]),
  },
  { name: "as a string", apply: (v, p) => setAt(v, p, text(getAt(v, p))) },
  { name: "missing field", apply: (v, p) => (p.length > 0 ? setAt(v, p, undefined) : {}) },
  {
    name: "extra key",
    apply: (v, p, r) => {
      const target = getAt(v, p);
      if (!target || typeof target !== "object" || Array.isArray(target))
        return setAt(v, [], { ...(v as object), zz_extra: r });
      return setAt(v, p, { ...target, [["zz_extra", "__proto__", "constructor", "$where", ""][r % 5]!]: r });
    },
  },
  { name: "huge string", apply: (v, p, r) => setAt(v, p, "x".repeat(10_000 + (r % 3) * 100_000)) },
  {
    name: "control characters",
    apply: (v, p, r) => setAt(v, p, `${text(getAt(v, p) ?? "q")}${HOSTILE[r % HOSTILE.length]}tail`),
  },
  { name: "deep nesting", apply: (v, p, r) => setAt(v, p, nested(depths[r % depths.length]!)) },
  { name: "null", apply: (v, p) => setAt(v, p, null) },
  { name: "stringified input", apply: (v) => JSON.stringify(v) },
  {
    name: "mongo operator",
    apply: (v, p, r) => setAt(v, p, [{ $ne: null }, { $where: "sleep(1000)" }, { $gt: "" }][r % 3]),
  },
];

/** Options of `nearValidFor`. */
export interface NearValidOptions {
  /**
   * Nesting depths the "deep nesting" mutation uses (default 60, 65, 460, 1,260). Only a caller
   * that never serialises the input may go far deeper: JSON.stringify recurses and would overflow
   * the test's own stack at 100,000 levels.
   */
  readonly depths?: ReadonlyArray<number>;
}

/**
 * Near-valid inputs for a tool: a valid value with one mutation (wrong type, a value as a string,
 * missing field, extra key, huge string, control characters, deep nesting, null, the whole input
 * as a JSON string, a MongoDB operator) at a random place, or arbitrary JSON.
 */
export const nearValidFor = (schema: JsonSchema, options: NearValidOptions = {}): fc.Arbitrary<unknown> => {
  const changes = mutations(options.depths ?? [60, 65, 460, 1_260]);
  return fc.oneof(
    { weight: 2, arbitrary: validFor(schema) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(validFor(schema), fc.nat(changes.length - 1), fc.nat(), fc.nat())
        .map(([value, m, at, r]) => {
          const paths = pathsOf(value);
          return changes[m]!.apply(value, paths[at % paths.length]!, r);
        }),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
};
