import type { EnvelopeMetadata, ToolResult } from "../envelope.js";
import { statusForKind } from "../envelope.js";
import { TRANSIENT_KINDS } from "../error-kinds.js";
import type { ToolFailure } from "../errors.js";
import { applyOutputBudget, fitsOutputBudget } from "../policies/output-budget.js";
import type { Settled } from "./after-call.js";
import type { Executed, Outcome } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";

/** The call's identity and time, for the envelope's metadata. */
export interface CallFacts {
  readonly callId: string;
  readonly durationMs: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const FALLBACK_GUIDANCE_KINDS: ReadonlySet<string> = TRANSIENT_KINDS;

const DEFAULT_GUIDANCE: Partial<Record<string, string>> = {
  unavailable:
    "The service is unavailable. Answer from your own knowledge if you can, say clearly that the tool could not be reached, and do not call it again more than once.",
  timeout:
    "The service was too slow. Try once more with a narrower request, or answer from what you know and say so.",
  rate_limited: "Wait for the time given in retryAfterMs before calling again, or answer without this tool.",
};

/**
 * Turns how a call ended into the one envelope the model sees: a pure function of the tool, the
 * outcome, what `settle` remembered and the call's facts. Redacts every secret of the tool's plugin.
 */
export const toEnvelope = (
  reg: RegisteredTool,
  outcome: Outcome,
  settled: Settled,
  facts: CallFacts,
): ToolResult => {
  switch (outcome._tag) {
    case "Succeeded":
      return succeeded(reg, outcome.executed, outcome.cache === "hit", facts);
    case "NeedsConfirmation": {
      const prefix = outcome.invalidToken
        ? "The confirmation token was invalid, expired or issued for a different call; a new one was issued. "
        : "";
      return {
        status: "partial",
        message: `${prefix}Confirmation needed: ${reg.name} changes data. Show the preview to the user; if they agree, call ${reg.name} again with the same input plus confirmation_token.`,
        data: outcome.confirmation.preview,
        confirmation: outcome.confirmation,
        instruction: "Do not confirm on the user's behalf: ask them first.",
        metadata: metadata(reg, facts, 0, false),
      };
    }
    case "FellBack": {
      const { answer, failure, fallbackTool } = outcome;
      return {
        ...answer,
        message: `${reg.name} failed (${reg.redact(failure.message)}); ${fallbackTool} answered instead. ${answer.message}`,
        metadata: { ...answer.metadata, tool: reg.name, plugin: reg.pluginId, fallbackTool },
      };
    }
    case "Refused":
      return failed(reg, outcome.failure, 0, false, settled, facts);
    case "Failed":
      // A cached answer made no attempt of its own: attempts counts this call's, as durationMs does.
      return outcome.cache === "hit"
        ? failed(reg, outcome.failure, 0, true, settled, facts)
        : failed(reg, outcome.failure, outcome.attempts, false, settled, facts);
  }
};

const metadata = (
  reg: RegisteredTool,
  facts: CallFacts,
  attempts: number,
  cached: boolean,
): Mutable<EnvelopeMetadata> => ({
  tool: reg.name,
  plugin: reg.pluginId,
  callId: facts.callId,
  durationMs: Math.round(facts.durationMs * 100) / 100,
  attempts,
  cached,
  truncated: false,
});

const succeeded = (
  reg: RegisteredTool,
  executed: Executed,
  cached: boolean,
  facts: CallFacts,
): ToolResult => {
  const instruction = executed.instruction ?? reg.tool.instruction;
  const maxChars = reg.policy.maxOutputChars;
  const fits = fitsOutputBudget(executed.data, maxChars);
  const { data, report } = fits
    ? { data: executed.data, report: undefined }
    : applyOutputBudget(executed.data, maxChars);
  const base = executed.message ?? `${reg.name} succeeded.`;
  const message = report?.truncated
    ? `${base} Output truncated to fit ${maxChars} characters (${report.note}).`
    : base;
  // A cached answer made no attempt of its own: attempts counts this call's, as durationMs does.
  const attempts = cached ? 0 : executed.attempts;
  const meta = metadata(reg, facts, attempts, cached);
  if (executed.metadata) {
    // The tool's own metadata, then the runtime's figures over it where the names meet.
    Object.assign(meta, executed.metadata);
    meta.attempts = attempts;
    meta.cached = cached;
  }
  meta.truncated = report?.truncated ?? false;
  if (report?.truncated) meta.originalChars = report.originalChars;
  if (executed.source) meta.source = executed.source;
  const status = executed.partial ? "partial" : "success";
  const text = reg.redact(message);
  // Key order as every envelope has it: instruction before metadata.
  return instruction
    ? { status, message: text, data, instruction, metadata: meta }
    : { status, message: text, data, metadata: meta };
};

const failed = (
  reg: RegisteredTool,
  failure: ToolFailure,
  attempts: number,
  cached: boolean,
  settled: Settled,
  facts: CallFacts,
): ToolResult => {
  const redact = reg.redact;
  const error = {
    kind: failure.kind,
    message: redact(failure.message),
    retryable: failure.isRetryable,
    ...(failure.retryAfterMs !== undefined ? { retryAfterMs: Math.round(failure.retryAfterMs) } : {}),
  };
  const escalation = settled.escalate
    ? `${reg.name} has now failed ${reg.policy.escalateAfter} times in a row in this conversation. Stop calling it, tell the user what failed (${error.message}), and ask how they want to proceed.`
    : undefined;
  if (settled.stale) {
    return {
      status: "partial",
      message: redact(
        `${reg.name} failed (${failure.message}); returning the last known result from ${new Date(settled.stale.at).toISOString()}, which may be out of date.`,
      ),
      data: settled.stale.data,
      instruction: escalation ?? "Say that this result may be out of date.",
      error,
      ...(settled.escalate ? { escalate: true } : {}),
      metadata: {
        ...metadata(reg, facts, attempts, true),
        stale: true,
        staleAgeMs: Math.round(settled.stale.ageMs),
      },
    };
  }
  // A tool's fallback guidance is for when it cannot answer at all, not for a bad argument.
  const guidance =
    failure.guidance ??
    (FALLBACK_GUIDANCE_KINDS.has(failure.kind)
      ? (reg.policy.fallback?.guidance ?? DEFAULT_GUIDANCE[failure.kind])
      : undefined);
  const meta = metadata(reg, facts, attempts, cached);
  if (failure.status !== undefined) meta.upstreamStatus = failure.status;
  return {
    status: statusForKind(failure.kind),
    message: error.message,
    ...(failure.data !== undefined ? { data: failure.data } : {}),
    error,
    ...(failure.suggestion ? { suggestion: redact(failure.suggestion) } : {}),
    ...(guidance ? { guidance: redact(guidance) } : {}),
    ...(escalation ? { escalate: true, instruction: escalation } : {}),
    metadata: meta,
  } as ToolResult;
};
