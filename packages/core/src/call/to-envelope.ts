import type { ConfirmationRequest, EnvelopeMetadata, ToolResult } from "../envelope.js";
import { statusForKind } from "../envelope.js";
import { TRANSIENT_KINDS } from "../error-kinds.js";
import type { ToolFailure } from "../errors.js";
import { applyOutputBudget } from "../policies/output-budget.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import type { Recalled } from "./call-memory.js";
import type { RunOutput } from "./run-tool.js";

/** What the envelope's metadata says of the call besides its tool. */
export interface CallFacts {
  readonly callId: string;
  readonly durationMs: number;
  /** Attempts this call made itself (0 for an answer from the cache or a call that never ran). */
  readonly attempts: number;
  /** Answered from the cache (or a call in flight it joined). */
  readonly cached: boolean;
  /** The input repairs the runtime made, if any. */
  readonly repairs?: ReadonlyArray<string> | undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const DEFAULT_GUIDANCE: Partial<Record<string, string>> = {
  unavailable:
    "The service is unavailable. Answer from your own knowledge if you can, say clearly that the tool could not be reached, and do not call it again more than once.",
  timeout:
    "The service was too slow. Try once more with a narrower request, or answer from what you know and say so.",
  rate_limited: "Wait for the time given in retryAfterMs before calling again, or answer without this tool.",
};

/**
 * The envelope step: how a call ended, as the one envelope the model sees. Each builder is a pure
 * function of the tool, what the call ended with and its facts; each redacts every secret of the
 * tool's plugin. A successful one keeps to the output budget (`maxOutputChars`), truncating and
 * saying so.
 */
export const successEnvelope = (reg: RegisteredTool, output: RunOutput, facts: CallFacts): ToolResult => {
  const instruction = output.instruction ?? reg.tool.instruction;
  const maxChars = reg.policy.maxOutputChars;
  // Measured here, once: only data over its budget goes to the truncation step.
  const fits =
    maxChars === Number.POSITIVE_INFINITY || (JSON.stringify(output.data)?.length ?? 0) <= maxChars;
  const { data, report } = fits ? { data: output.data } : applyOutputBudget(output.data, maxChars);
  // Only the tool's own message can hold a secret: the default names the tool, nothing else.
  const base = output.message === undefined ? `${reg.name} succeeded.` : reg.redact(output.message);
  const message = report?.truncated
    ? `${base} Output truncated to fit ${maxChars} characters (${report.note}).`
    : base;
  const meta = metadata(reg, facts);
  if (output.metadata) {
    // The tool's own metadata, then the runtime's figures over it where the names meet.
    Object.assign(meta, output.metadata);
    meta.attempts = facts.attempts;
    meta.cached = facts.cached;
    if (facts.repairs?.length) meta.repairs = [...facts.repairs];
  }
  meta.truncated = report?.truncated ?? false;
  if (report?.truncated) meta.originalChars = report.originalChars;
  if (output.source) meta.source = output.source;
  const status = output.partial ? "partial" : "success";
  // Key order as every envelope has it: instruction before metadata.
  return instruction
    ? { status, message, data, instruction, metadata: meta }
    : { status, message, data, metadata: meta };
};

/** A destructive tool's preview: the call waits for the user's confirmation. */
export const confirmationEnvelope = (
  reg: RegisteredTool,
  confirmation: ConfirmationRequest,
  /** A token came with the call but was not valid for it. */
  tokenRefused: { readonly invalidToken: boolean },
  facts: CallFacts,
): ToolResult => ({
  status: "partial",
  message: `${tokenRefused.invalidToken ? "The confirmation token was invalid, expired or issued for a different call; a new one was issued. " : ""}Confirmation needed: ${reg.name} changes data. Show the preview to the user; if they agree, call ${reg.name} again with the same input plus confirmation_token.`,
  data: confirmation.preview,
  confirmation,
  instruction: "Do not confirm on the user's behalf: ask them first.",
  metadata: metadata(reg, facts),
});

/** The tool failed and its fallback tool answered instead. */
export const fallbackEnvelope = (
  reg: RegisteredTool,
  failure: ToolFailure,
  fallbackTool: string,
  answer: ToolResult,
): ToolResult => ({
  ...answer,
  message: `${reg.name} failed (${reg.redact(failure.message)}); ${fallbackTool} answered instead. ${answer.message}`,
  metadata: { ...answer.metadata, tool: reg.name, plugin: reg.pluginId, fallbackTool },
});

/** The envelope's metadata: the tool (by name and plugin) and the facts of the call. */
export const metadata = (
  reg: Pick<RegisteredTool, "name" | "pluginId">,
  facts: CallFacts,
): Mutable<EnvelopeMetadata> => {
  const meta: Mutable<EnvelopeMetadata> = {
    tool: reg.name,
    plugin: reg.pluginId,
    callId: facts.callId,
    durationMs: Math.round(facts.durationMs * 100) / 100,
    attempts: facts.attempts,
    cached: facts.cached,
    truncated: false,
  };
  if (facts.repairs?.length) meta.repairs = [...facts.repairs];
  return meta;
};

/** A failed call: its error, with the guidance, escalation or stale result that goes with it. */
export const failureEnvelope = (
  reg: RegisteredTool,
  failure: ToolFailure,
  recalled: Recalled,
  facts: CallFacts,
): ToolResult => {
  const redact = reg.redact;
  const error = {
    kind: failure.kind,
    message: redact(failure.message),
    retryable: failure.isRetryable,
    ...(failure.retryAfterMs !== undefined ? { retryAfterMs: Math.round(failure.retryAfterMs) } : {}),
  };
  const escalation = recalled.escalate
    ? `${reg.name} has now failed ${reg.policy.escalateAfter} times in a row in this conversation. Stop calling it, tell the user what failed (${error.message}), and ask how they want to proceed.`
    : undefined;
  if (recalled.stale) {
    return {
      status: "partial",
      message: redact(
        `${reg.name} failed (${failure.message}); returning the last known result from ${new Date(recalled.stale.at).toISOString()}, which may be out of date.`,
      ),
      data: recalled.stale.data,
      instruction: escalation ?? "Say that this result may be out of date.",
      error,
      ...(recalled.escalate ? { escalate: true } : {}),
      metadata: {
        ...metadata(reg, { ...facts, cached: true }),
        stale: true,
        staleAgeMs: Math.round(recalled.stale.ageMs),
      },
    };
  }
  // A tool's fallback guidance is for when it cannot answer at all, not for a bad argument.
  const guidance =
    failure.guidance ??
    (TRANSIENT_KINDS.has(failure.kind)
      ? (reg.policy.fallback?.guidance ?? DEFAULT_GUIDANCE[failure.kind])
      : undefined);
  const meta = metadata(reg, facts);
  if (failure.status !== undefined) meta.upstreamStatus = failure.status;
  // A timeout, or a call its caller stopped (a task's deadline), that kept some results is an answer
  // with caveats (a partial marked incomplete, its error saying why); one with nothing is an error.
  const incomplete =
    (failure.kind === "timeout" || failure.kind === "unavailable") && failure.data !== undefined;
  if (incomplete) meta.incomplete = true;
  return {
    status: incomplete ? "partial" : statusForKind(failure.kind),
    message: error.message,
    ...(failure.data !== undefined ? { data: failure.data } : {}),
    error,
    ...(failure.suggestion ? { suggestion: redact(failure.suggestion) } : {}),
    ...(guidance ? { guidance: redact(guidance) } : {}),
    ...(escalation ? { escalate: true, instruction: escalation } : {}),
    metadata: meta,
  } as ToolResult;
};
