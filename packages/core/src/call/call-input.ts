import { configure } from "safe-stable-stringify";
import { fail, type ToolFailure } from "../errors.js";
import type { CallOptions } from "../runtime/call-types.js";
import type { ConfirmationStore } from "../runtime/confirmations.js";
import { fillInjected } from "../runtime/injected-fields.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { parseToolInput } from "../schema/repair.js";
import { guardInput, isZodSchema, validateSync } from "../schema/validate.js";

/**
 * JSON with object keys sorted at every depth (safe-stable-stringify), so equal inputs give equal
 * cache ids and confirmation fingerprints. Circular values and bigints become text instead of
 * throwing, so working out a cache id never fails a call.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export const canonicalJson = (value: unknown): string => stableStringify(value) ?? "";

const stableStringify = configure({ deterministic: true });

/** The input field a destructive tool's confirmation token travels in. */
export const CONFIRMATION_FIELD = "confirmation_token";

/** What the input step decided. */
export type InputStep =
  /** The call ends here: unconfigured plugin or invalid input. */
  | { readonly _tag: "Refused"; readonly failure: ToolFailure }
  /** A destructive call without a valid token: a token was issued, the preview is next. */
  | {
      readonly _tag: "Confirm";
      readonly value: Record<string, unknown>;
      readonly issued: { readonly token: string; readonly expiresAt: string };
      readonly invalidToken: boolean;
    }
  /** The call runs with this validated input; `repairs` says what was changed to make it valid. */
  | {
      readonly _tag: "Ready";
      readonly value: Record<string, unknown>;
      readonly cacheId: string;
      readonly repairs: ReadonlyArray<string>;
    };

/**
 * The input step, before anything runs: the plugin's configuration, the input (a stringified object
 * parsed, session values injected, the confirmation token taken out, validated, and repaired only
 * when it is invalid) and the confirmation of destructive tools (a valid token is consumed,
 * otherwise a new one is issued). A promise only for a destructive tool whose tokens are in a store
 * that answers later.
 */
export const readInput = (
  reg: RegisteredTool,
  raw: unknown,
  options: CallOptions,
  confirmations: ConfirmationStore,
): InputStep | Promise<InputStep> => {
  const refused = (failure: ToolFailure): InputStep => ({ _tag: "Refused", failure });
  if (!reg.config.ok) return refused(unconfigured(reg.config));
  const limit = options.timeoutMs;
  if (limit !== undefined && !(typeof limit === "number" && limit > 0))
    return refused(
      fail.invalidInput(`timeoutMs must be a positive number of milliseconds, got ${String(limit)}.`, {
        suggestion: `Give a positive timeout, at most the tool's ${reg.policy.timeoutMs} ms, or none.`,
      }),
    );
  const session = options.session;
  const principal = session?.principal;
  let input: unknown = raw;
  try {
    if (typeof raw === "string") input = JSON.parse(raw);
  } catch {} // left to validation, which names the problem
  let token = options.confirmationToken;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    if (reg.destructive && typeof copy[CONFIRMATION_FIELD] === "string") token ??= copy[CONFIRMATION_FIELD];
    delete copy[CONFIRMATION_FIELD];
    if (reg.inject.length > 0) fillInjected(copy, reg.inject, principal, session?.values);
    input = copy;
  }
  const parsed = validated(reg, input);
  if (!parsed.ok) return refused(fail.invalidInput(parsed.message, { suggestion: parsed.suggestion }));
  const value = parsed.value as Record<string, unknown>;
  const canonical = reg.keysResults || reg.destructive ? canonicalJson(value) : "";
  // Groups are part of who is calling: a tool may answer a group member more than the principal alone.
  const groups = session?.groups?.length ? `\u0001${[...session.groups].sort().join("\u0001")}` : "";
  const cacheId = reg.keysResults ? `${reg.name}\u0000${principal ?? ""}${groups}\u0000${canonical}` : "";
  const ready: InputStep = { _tag: "Ready", value, cacheId, repairs: parsed.repairs };
  if (!reg.destructive) return ready;
  const confirm = (): InputStep | Promise<InputStep> => {
    const issued = confirmations.issue(reg.name, canonical, principal);
    const invalidToken = token !== undefined;
    return issued instanceof Promise
      ? issued.then((i): InputStep => ({ _tag: "Confirm", value, issued: i, invalidToken }))
      : { _tag: "Confirm", value, issued, invalidToken };
  };
  if (!token) return confirm();
  const consumed = confirmations.consume(token, reg.name, canonical, principal);
  if (consumed instanceof Promise) return consumed.then((ok) => (ok ? ready : confirm()));
  return consumed ? ready : confirm();
};

const unconfigured = (config: { readonly message: string; readonly missing: ReadonlyArray<string> }) =>
  fail.unavailable(config.message, {
    retryable: false,
    ...(config.missing.length > 0
      ? { suggestion: `Ask the operator to set ${config.missing.join(", ")} and restart the host.` }
      : {}),
    guidance:
      "This tool is not configured here. Answer from your own knowledge and say the tool was unavailable.",
  });

/**
 * The input validated by the tool's schema: a valid input costs the guard and one validation; only
 * an invalid one (or one whose fields a zod object dropped, to list them) goes to `parseToolInput`
 * for its repairs, "did you mean" and suggestions.
 */
const validated = (reg: RegisteredTool, input: unknown) => {
  const schema = reg.tool.input;
  const problem = guardInput(input);
  if (problem) return { ok: false as const, message: problem.message, suggestion: problem.suggestion };
  const checked = validateSync(schema, input);
  if (checked.ok && !(isZodSchema(schema) && droppedField(input, checked.value)))
    return { ok: true as const, value: checked.value, repairs: NO_REPAIRS };
  return parseToolInput(schema, input);
};

const NO_REPAIRS: ReadonlyArray<string> = Object.freeze([]);

/** Whether `value` (validated) lacks a field `input` has, at any depth: what a zod object strips. */
const droppedField = (input: unknown, value: unknown): boolean => {
  if (typeof input !== "object" || input === null || typeof value !== "object" || value === null)
    return false;
  if (Array.isArray(input)) return input.some((item, i) => droppedField(item, (value as unknown[])[i]));
  for (const key in input) {
    if (!(key in value)) return true;
    if (droppedField((input as Record<string, unknown>)[key], (value as Record<string, unknown>)[key]))
      return true;
  }
  return false;
};
