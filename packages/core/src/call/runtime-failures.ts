import * as Cause from "effect/Cause";
import type { ToolResult } from "../envelope.js";
import { fail, type ToolFailure } from "../errors.js";
import type { CallOptions } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { closestMatches } from "../schema/edit-distance.js";
import { toFailure } from "./run-tool.js";
import { metadata } from "./to-envelope.js";

// The failures the runtime itself reports, rather than a tool: a call it stopped, refused or could
// not find a tool for.

/**
 * The failure a call's run ended with: its error, or its defect as `internal`; undefined when it was
 * interrupted (see {@link stoppedFailure}).
 */
export const failureOf = (cause: Cause.Cause<ToolFailure>, tool: string): ToolFailure | undefined => {
  const failure = Cause.findErrorOption(cause);
  if (failure._tag === "Some") return failure.value;
  const defect = Cause.findDefect(cause);
  return defect._tag === "Success" ? toFailure(defect.success, tool) : undefined;
};

/** The failure of a call that joined another's run (in the cache) which was interrupted. */
export const joinedRunStopped = (tool: string): ToolFailure =>
  fail.unavailable(`${tool} was cancelled before it finished.`, { retryable: true });

/**
 * Why a call was stopped before it finished: the caller's abort (with the reason it gave: a task's
 * deadline, a shutdown), the catalog closing (`catalog.stopping`), or else a defect in the runtime.
 * What the tool reported with `ctx.reportPartial` before its caller stopped it is kept as the
 * failure's data, so the envelope is a `partial` marked incomplete (a task that reached its deadline
 * keeps what it found).
 */
export const stoppedFailure = (
  reg: RegisteredTool,
  callOptions: CallOptions,
  catalog: { readonly stopping: boolean },
  partialData?: unknown,
): ToolFailure => {
  if (callOptions.signal?.aborted) {
    // A reason given with the abort says who stopped the call ("The host is shutting down.").
    const reason = callOptions.signal.reason;
    const why =
      reason instanceof Error && reason.name !== "AbortError" && reason.message ? reason.message : undefined;
    const stopped = why
      ? `${reg.name} was cancelled before it finished: ${why}`
      : `${reg.name} was cancelled by the caller before it finished`;
    return partialData === undefined
      ? fail.unavailable(`${stopped}.`, { retryable: true })
      : fail.unavailable(`${stopped}; returning what was found so far.`, {
          retryable: true,
          data: partialData,
          suggestion: "The data is incomplete: say so, or narrow the request.",
        });
  }
  if (catalog.stopping)
    return fail.unavailable(`${reg.name} was stopped because the host is shutting down.`, {
      retryable: true,
    });
  return fail.internal(`${reg.name} could not be run by the runtime.`);
};

/** A call refused because the caller's access token lacks scopes the tool needs. */
export const missingScopesFailure = (reg: RegisteredTool, missing: ReadonlyArray<string>): ToolFailure =>
  fail.accessDenied(
    `${reg.name} needs the scope${missing.length === 1 ? "" : "s"} ${missing.join(" ")}, which the caller's access token does not carry.`,
    {
      retryable: false,
      suggestion: `Ask the authorization server for a token with scope "${missing.join(" ")}", or use another tool.`,
    },
  );

/** The envelope for a name no tool has, with the closest names. */
export const unknownTool = (name: string, names: ReadonlyArray<string>): ToolResult => {
  const close = closestMatches(names, name, { limit: 3 });
  const message = `There is no tool named "${name}".`;
  return {
    status: "error",
    message,
    error: { kind: "invalid_input", message, retryable: false },
    suggestion:
      close.length > 0
        ? `Did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`
        : "No tools are registered.",
    metadata: metadata({ name, pluginId: "" }, { callId: "", durationMs: 0, attempts: 0, cached: false }),
  };
};
