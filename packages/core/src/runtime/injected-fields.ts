import type { AnyTool, InjectMode } from "../define-tool.js";
import { validateSync } from "../schema/validate.js";

/** One context-injected field of a tool, normalised from `inject`. */
export interface InjectedField {
  readonly field: string;
  /** The session value key (`"principal"` for the caller). */
  readonly from: string;
  readonly mode: InjectMode;
  /**
   * Whether the input schema accepts `value` for this field of `input` (a `default` fills only with
   * one it accepts): the input with the value set is validated and no issue may name the field.
   */
  readonly accepts: (value: unknown, input: Readonly<Record<string, unknown>>) => boolean;
}

/** The tool's `inject` entries with the string form read as `{ from, mode: "override" }`. */
export const injectedFields = (tool: AnyTool): InjectedField[] =>
  Object.entries((tool.inject ?? {}) as Record<string, unknown>).flatMap(([field, spec]) => {
    const from = typeof spec === "string" ? spec : (spec as { from?: unknown } | undefined)?.from;
    if (typeof from !== "string") return [];
    const mode: InjectMode = (spec as { mode?: InjectMode }).mode === "default" ? "default" : "override";
    // Through the whole input's Standard Schema: any library, and no sub-schema lookup to keep up.
    const accepts = (value: unknown, input: Readonly<Record<string, unknown>>) => {
      const checked = validateSync(tool.input, { ...input, [field]: value });
      return checked.ok || !checked.issues.some((issue) => issue.path[0] === field);
    };
    return [{ field, from, mode, accepts }];
  });

/** The fields left out of the model's schema: those in `override` mode. */
export const hiddenFields = (tool: AnyTool): string[] =>
  injectedFields(tool).flatMap((f) => (f.mode === "override" ? [f.field] : []));

/** Absent, null (the OpenAI strict encoding of "left out") or a blank string. */
const leftOut = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/**
 * Fills the injected fields of a call's input in place. `override`: the session value replaces the
 * model's (a missing principal removes the field, so it cannot be spoofed). `default`: the session
 * value fills a field the model left out, when the field's schema accepts it.
 */
export const fillInjected = (
  input: Record<string, unknown>,
  fields: ReadonlyArray<InjectedField>,
  principal: string | undefined,
  values: Readonly<Record<string, unknown>> | undefined,
): void => {
  for (const { field, from, mode, accepts } of fields) {
    const value = from === "principal" ? principal : values?.[from];
    if (mode === "default") {
      if (leftOut(input[field]) && !leftOut(value) && accepts(value, input)) input[field] = value;
    } else if (value !== undefined) input[field] = value;
    else if (from === "principal") delete input[field];
  }
};
