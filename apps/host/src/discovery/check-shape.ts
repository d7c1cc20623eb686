import { type AnyPlugin, isPlugin, isToolSchema, SPECIFICATION_VERSION } from "@quiver/core";

/** The verdict on a default export: a usable plugin, or what is wrong with it. */
export type ShapeVerdict =
  | { readonly ok: true; readonly plugin: AnyPlugin }
  | { readonly ok: false; readonly kind: "invalid_shape" | "incompatible"; readonly message: string };

const ID = /^[a-z0-9][a-z0-9-]{0,40}$/;
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const describeValue = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : typeof v;

/**
 * Checks at run time that a value is a plugin this host can serve: built by `definePlugin` (from any
 * copy of @quiver/core) or structurally the same — `specificationVersion: "v1"`, an `id`, and `tools`
 * whose entries each have a name, a description, an input schema (any Standard Schema that exports
 * JSON Schema: zod 4, valibot through `toStandardJsonSchema`, ArkType ...) and a `run` function.
 *
 * @example
 * const verdict = checkPluginShape(mod.default)
 * if (!verdict.ok) console.error(verdict.message)
 */
export const checkPluginShape = (value: unknown): ShapeVerdict => {
  if (typeof value !== "object" || value === null) {
    return {
      ok: false,
      kind: "invalid_shape",
      message: `its default export is ${describeValue(value)}, not a plugin.`,
    };
  }
  const p = value as Record<string, unknown>;
  if (p.specificationVersion !== SPECIFICATION_VERSION) {
    return p.specificationVersion === undefined
      ? {
          ok: false,
          kind: "invalid_shape",
          message: "its default export has no specificationVersion: it is not a Quiver plugin.",
        }
      : {
          ok: false,
          kind: "incompatible",
          message: `it implements plugin specification ${JSON.stringify(p.specificationVersion)}; this host serves ${SPECIFICATION_VERSION}.`,
        };
  }
  if (typeof p.id !== "string" || !ID.test(p.id)) {
    return { ok: false, kind: "invalid_shape", message: `its id ${JSON.stringify(p.id)} must match ${ID}.` };
  }
  if (!Array.isArray(p.tools)) {
    return { ok: false, kind: "invalid_shape", message: `plugin "${p.id}" has no tools array.` };
  }
  for (const [i, t] of (p.tools as unknown[]).entries()) {
    const tool = (t ?? {}) as Record<string, unknown>;
    const name = typeof tool.name === "string" ? tool.name : `#${i}`;
    if (typeof tool.name !== "string" || !NAME.test(tool.name)) {
      return {
        ok: false,
        kind: "invalid_shape",
        message: `tool ${name} of plugin "${p.id}" has an invalid name.`,
      };
    }
    if (typeof tool.description !== "string" || typeof tool.run !== "function") {
      return {
        ok: false,
        kind: "invalid_shape",
        message: `tool "${name}" of plugin "${p.id}" needs a description and a run function.`,
      };
    }
    if (!isToolSchema(tool.input)) {
      return {
        ok: false,
        kind: "invalid_shape",
        message: `tool "${name}" of plugin "${p.id}" has no input schema that exports JSON Schema (zod 4, or a Standard JSON Schema such as valibot's toStandardJsonSchema).`,
      };
    }
  }
  if (typeof p.version !== "string") {
    return { ok: false, kind: "invalid_shape", message: `plugin "${p.id}" has no version string.` };
  }
  // A structural plugin (e.g. built by hand) is accepted as is; the catalog reads only these fields.
  return { ok: true, plugin: (isPlugin(value) ? value : value) as AnyPlugin };
};
