import {
  type AnySchema,
  checksOf,
  defOf,
  isIntegerCheck,
  type LooseCheck,
  unwrap,
} from "./zod-introspect.js";

/** How each zod string format is named to a model, with an example where one helps. */
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  date: "date (YYYY-MM-DD)",
  datetime: "date-time (YYYY-MM-DDTHH:MM:SSZ)",
  time: "time (HH:MM:SS)",
  duration: "ISO 8601 duration (P1DT2H)",
  email: "email address",
  url: "URL",
  uuid: "UUID",
  guid: "GUID",
  ipv4: "IPv4 address",
  ipv6: "IPv6 address",
};

const MAX_LIST = 8;

/** Allowed values as a model reads them: `"asc"`, or `one of "asc", "desc"` (at most 8 shown). */
export function listValues(values: ReadonlyArray<unknown>): string {
  const shown = values.slice(0, MAX_LIST).map((value) => JSON.stringify(value) ?? String(value));
  if (values.length > MAX_LIST) shown.push(`… (${values.length} values)`);
  return shown.length === 1 ? shown[0]! : `one of ${shown.join(", ")}`;
}

function numberRange(checks: LooseCheck[]): string {
  const bound = (name: string) => checks.find((c) => c.check === name && typeof c.value === "number");
  const [lo, hi] = [bound("greater_than"), bound("less_than")];
  if (lo?.inclusive === true && hi?.inclusive === true) return ` between ${lo.value} and ${hi.value}`;
  const parts = [
    lo && `${lo.inclusive === true ? ">=" : ">"} ${lo.value}`,
    hi && `${hi.inclusive === true ? "<=" : "<"} ${hi.value}`,
  ];
  const text = parts.filter(Boolean).join(" and ");
  return text ? ` ${text}` : "";
}

function lengthRange(checks: LooseCheck[], unit: string): string {
  const exact = checks.find((c) => c.check === "length_equals")?.length;
  if (typeof exact === "number") return ` of exactly ${exact} ${unit}`;
  const min = checks.find((c) => c.check === "min_length")?.minimum;
  const max = checks.find((c) => c.check === "max_length")?.maximum;
  if (typeof min === "number" && typeof max === "number") return ` of ${min}-${max} ${unit}`;
  if (typeof min === "number") return ` of at least ${min} ${unit}`;
  if (typeof max === "number") return ` of at most ${max} ${unit}`;
  return "";
}

function describeString(checks: LooseCheck[]): string {
  const parts: string[] = [];
  for (const check of checks) {
    if (check.check !== "string_format") continue;
    const format = String(check.format);
    if (format === "regex" && check.pattern instanceof RegExp)
      parts.push(`matching /${check.pattern.source}/`);
    else if (format === "starts_with") parts.push(`starting with ${JSON.stringify(check.prefix)}`);
    else if (format === "ends_with") parts.push(`ending with ${JSON.stringify(check.suffix)}`);
    else if (format === "includes") parts.push(`containing ${JSON.stringify(check.includes)}`);
    else parts.push(`in ${FORMAT_NAMES[format] ?? format} format`);
  }
  return `string${lengthRange(checks, "characters")}${parts.length ? ` ${parts.join(", ")}` : ""}`;
}

/**
 * What a schema accepts, in words a model can act on: `integer between 1 and 100`,
 * `one of "asc", "desc"`, `string in date (YYYY-MM-DD) format`, `array of string of at most 5 items`.
 */
export function describeSchema(schema: AnySchema, depth = 2): string {
  const { schema: inner, nullable } = unwrap(schema);
  const text = describeInner(inner, depth);
  return nullable ? `${text} or null` : text;
}

function describeInner(schema: AnySchema, depth: number): string {
  const def = defOf(schema);
  const checks = checksOf(schema);
  switch (def.type) {
    case "string":
      return describeString(checks);
    case "number":
      return `${checks.some(isIntegerCheck) ? "integer" : "number"}${numberRange(checks)}`;
    case "enum":
    case "literal":
      return listValues([...(schema._zod.values ?? [])]);
    case "array": {
      const element = depth > 0 ? ` of ${describeSchema(def.element as AnySchema, depth - 1)}` : "";
      return `array${element}${lengthRange(checks, "items")}`;
    }
    case "object": {
      const keys = Object.keys(def.shape as object);
      const shown = keys.slice(0, MAX_LIST).join(", ");
      return keys.length ? `object with fields ${shown}${keys.length > MAX_LIST ? ", …" : ""}` : "object";
    }
    case "record":
      return depth > 0
        ? `object mapping ${describeSchema(def.keyType as AnySchema, 0)} keys to ${describeSchema(def.valueType as AnySchema, depth - 1)}`
        : "object";
    case "union": {
      const options = def.options as ReadonlyArray<AnySchema>;
      return depth > 0
        ? options.map((option) => describeSchema(option, depth - 1)).join(" or ")
        : "one of several shapes";
    }
    case "tuple":
      return `array [${(def.items as AnySchema[]).map((item) => describeSchema(item, 0)).join(", ")}]`;
    case "any":
    case "unknown":
      return "any value";
    default:
      return def.type;
  }
}
