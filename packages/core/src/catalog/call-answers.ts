import type { ToolResult } from "../envelope.js";
import { fail, type ToolFailure } from "../errors.js";
import type { CallOptions } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { closestMatches } from "../schema/edit-distance.js";

/**
 * Why a call's fiber ended without an outcome: the caller's abort (with the reason it gave), the
 * catalog closing (`stopping`), or a defect in the runtime.
 */
export const stoppedFailure = (
  reg: RegisteredTool,
  callOptions: CallOptions,
  stopping: boolean,
): ToolFailure => {
  if (callOptions.signal?.aborted) {
    // A reason given with the abort says who stopped the call ("The host is shutting down.").
    const reason = callOptions.signal.reason;
    const why =
      reason instanceof Error && reason.name !== "AbortError" && reason.message ? reason.message : undefined;
    return fail.unavailable(
      why
        ? `${reg.name} was cancelled before it finished: ${why}`
        : `${reg.name} was cancelled by the caller before it finished.`,
      { retryable: true },
    );
  }
  if (stopping) {
    return fail.unavailable(`${reg.name} was stopped because the host is shutting down.`, {
      retryable: true,
    });
  }
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

/** The envelope with the input repairs the runtime made, if any, in its metadata. */
export const withRepairs = (envelope: ToolResult, repairs: ReadonlyArray<string> | undefined): ToolResult =>
  repairs && repairs.length > 0
    ? { ...envelope, metadata: { ...envelope.metadata, repairs: [...repairs] } }
    : envelope;

/** The envelope for a name no tool has, with the closest names. */
export const unknownTool = (name: string, names: ReadonlyArray<string>): ToolResult => {
  const close = closestMatches(names, name, { limit: 3 });
  const failure = fail.invalidInput(`There is no tool named "${name}".`, {
    suggestion:
      close.length > 0
        ? `Did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`
        : "No tools are registered.",
  });
  return {
    status: "error",
    message: failure.message,
    error: { kind: "invalid_input", message: failure.message, retryable: false },
    ...(failure.suggestion ? { suggestion: failure.suggestion } : {}),
    metadata: {
      tool: name,
      plugin: "",
      callId: "",
      durationMs: 0,
      attempts: 0,
      cached: false,
      truncated: false,
    },
  };
};
