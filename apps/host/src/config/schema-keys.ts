type SchemaLike = {
  readonly shape?: Readonly<Record<string, unknown>>;
  readonly _zod?: { readonly def?: Readonly<Record<string, unknown>> };
};

/** The object under wrappers (optional, default, a union's object branch), or undefined. */
const objectOf = (schema: unknown): SchemaLike | undefined => {
  let s = schema as SchemaLike | undefined;
  for (let depth = 0; s && depth < 8; depth++) {
    if (s.shape && typeof s.shape === "object") return s;
    const def = s._zod?.def;
    if (!def) return undefined;
    if (Array.isArray(def.options)) {
      // A union (`false | { … }`): the object branch holds the keys.
      s = (def.options as SchemaLike[]).find((o) => objectOf(o) !== undefined);
      continue;
    }
    s = (def.innerType ?? def.in ?? def.schema) as SchemaLike | undefined;
  }
  return undefined;
};

/**
 * The keys an object schema accepts at a path of a value it validates (records and arrays step
 * through their value type), or none when the path leads to no object. zod keeps an object's keys
 * in `shape` under its wrappers, and no zod function walks every wrapper kind, hence these lines.
 *
 * @example
 * keysAt(configFileSchema, ["server"]) // ["host", "port", …]
 */
export const keysAt = (schema: unknown, path: ReadonlyArray<PropertyKey>): string[] => {
  let s: unknown = schema;
  for (const part of path) {
    const obj = objectOf(s);
    if (obj) {
      s = obj.shape?.[String(part)];
      continue;
    }
    // A record or an array: every key or index has the value's schema.
    let w = s as SchemaLike | undefined;
    for (let depth = 0; w?._zod?.def && depth < 8; depth++) {
      const def = w._zod.def;
      if (def.valueType || def.element) {
        w = (def.valueType ?? def.element) as SchemaLike;
        break;
      }
      w = (def.innerType ?? def.in ?? def.schema) as SchemaLike | undefined;
    }
    s = w;
  }
  const obj = objectOf(s);
  return obj?.shape ? Object.keys(obj.shape) : [];
};
