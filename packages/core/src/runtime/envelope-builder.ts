import type { ConfirmationRequest, EnvelopeMetadata, ToolResult } from "../envelope.js";
import { statusForKind } from "../envelope.js";
import { TRANSIENT_KINDS } from "../error-kinds.js";
import type { ToolFailure } from "../errors.js";
import { applyOutputBudget, fitsOutputBudget } from "../policies/output-budget.js";
import type { ExecutorDeps, SessionContext } from "./execute-tool.js";
import { redactSecrets } from "./execute-tool.js";
import type { Executed, RegisteredTool } from "./registered-tool.js";

/** Everything known when a call ends. */
export interface Finished {
  readonly reg: RegisteredTool;
  readonly callId: string;
  readonly durationMs: number;
  readonly executed?: Executed;
  readonly cached?: boolean;
  readonly cache?: "hit" | "miss" | undefined;
  readonly failure?: ToolFailure;
  readonly attempts?: number;
  readonly staleKey?: string;
  readonly input?: unknown;
  readonly confirmation?: ConfirmationRequest;
  readonly invalidToken?: boolean;
}

const FALLBACK_GUIDANCE_KINDS: ReadonlySet<string> = TRANSIENT_KINDS;

const DEFAULT_GUIDANCE: Partial<Record<string, string>> = {
  unavailable:
    "The service is unavailable. Answer from your own knowledge if you can, say clearly that the tool could not be reached, and do not call it again more than once.",
  timeout:
    "The service was too slow. Try once more with a narrower request, or answer from what you know and say so.",
  rate_limited: "Wait for the time given in retryAfterMs before calling again, or answer without this tool.",
};

/** Turns a finished call into the one envelope the model sees. Redacts every secret it knows of. */
export const buildEnvelope = (f: Finished, deps: ExecutorDeps, session: SessionContext): ToolResult => {
  const { reg } = f;
  const redact = (s: string | undefined) => (s === undefined ? undefined : redactSecrets(s, reg.secrets));
  const meta = (extra: Partial<EnvelopeMetadata>): EnvelopeMetadata => ({
    tool: reg.name,
    plugin: reg.pluginId,
    callId: f.callId,
    durationMs: Math.round(f.durationMs * 100) / 100,
    attempts: f.attempts ?? 0,
    cached: false,
    truncated: false,
    ...extra,
  });
  const sessionKey = session.id ?? session.principal;

  if (f.confirmation) {
    const prefix = f.invalidToken
      ? "The confirmation token was invalid, expired or issued for a different call; a new one was issued. "
      : "";
    return {
      status: "partial",
      message: `${prefix}Confirmation needed: ${reg.name} changes data. Show the preview to the user; if they agree, call ${reg.name} again with the same input plus confirmation_token.`,
      data: f.confirmation.preview,
      confirmation: f.confirmation,
      instruction: "Do not confirm on the user's behalf: ask them first.",
      metadata: meta({}),
    };
  }

  if (f.executed) {
    if (sessionKey) deps.sessions.succeeded(sessionKey, reg.name);
    const executed = f.executed;
    const instruction = executed.instruction ?? reg.tool.instruction;
    if (executed.metadata === undefined && fitsOutputBudget(executed.data, reg.policy.maxOutputChars)) {
      // The common case, built directly: the same fields in the same order as below.
      const message = executed.message ?? `${reg.name} succeeded.`;
      const metadata: { -readonly [K in keyof EnvelopeMetadata]: EnvelopeMetadata[K] } = {
        tool: reg.name,
        plugin: reg.pluginId,
        callId: f.callId,
        durationMs: Math.round(f.durationMs * 100) / 100,
        attempts: executed.attempts,
        cached: f.cached ?? false,
        truncated: false,
      };
      if (executed.source) metadata.source = executed.source;
      const result: { -readonly [K in keyof ToolResult]: ToolResult[K] } = {
        status: executed.partial ? "partial" : "success",
        message: reg.secrets.length > 0 ? redactSecrets(message, reg.secrets) : message,
        data: executed.data,
        metadata,
      };
      if (instruction) {
        // Keep the key order of the general path: instruction comes before metadata.
        return { status: result.status, message: result.message, data: result.data, instruction, metadata };
      }
      return result;
    }
    const { data, report } = applyOutputBudget(executed.data, reg.policy.maxOutputChars);
    const base = executed.message ?? `${reg.name} succeeded.`;
    const message = report.truncated
      ? `${base} Output truncated to fit ${reg.policy.maxOutputChars} characters (${report.note}).`
      : base;
    return {
      status: executed.partial ? "partial" : "success",
      message: redact(message) ?? message,
      data,
      ...(instruction ? { instruction } : {}),
      metadata: meta({
        ...executed.metadata,
        attempts: executed.attempts,
        cached: f.cached ?? false,
        truncated: report.truncated,
        ...(report.truncated ? { originalChars: report.originalChars } : {}),
        ...(executed.source ? { source: executed.source } : {}),
      }),
    };
  }

  const failure = f.failure!;
  const fallback = reg.policy.fallback;
  const stale =
    fallback?.stale && f.staleKey && failure.kind !== "invalid_input"
      ? deps.stale.get(f.staleKey)
      : undefined;
  let escalate = false;
  if (sessionKey && failure.kind !== "invalid_input") {
    escalate = deps.sessions.failed(sessionKey, reg.name) >= reg.policy.escalateAfter;
  }
  const error = {
    kind: failure.kind,
    message: redact(failure.message) ?? failure.message,
    retryable: failure.isRetryable,
    ...(failure.retryAfterMs !== undefined ? { retryAfterMs: Math.round(failure.retryAfterMs) } : {}),
  };
  // A tool's fallback guidance is for when it cannot answer at all, not for a bad argument.
  const guidance =
    failure.guidance ??
    (FALLBACK_GUIDANCE_KINDS.has(failure.kind)
      ? (fallback?.guidance ?? DEFAULT_GUIDANCE[failure.kind])
      : undefined);
  const escalation = escalate
    ? `${reg.name} has now failed ${reg.policy.escalateAfter} times in a row in this conversation. Stop calling it, tell the user what failed (${error.message}), and ask how they want to proceed.`
    : undefined;
  if (stale) {
    return {
      status: "partial",
      message: redact(
        `${reg.name} failed (${failure.message}); returning the last known result from ${new Date(stale.at).toISOString()}, which may be out of date.`,
      )!,
      data: stale.data,
      instruction: escalation ?? "Say that this result may be out of date.",
      error,
      ...(escalate ? { escalate } : {}),
      metadata: meta({ cached: true, stale: true }),
    };
  }
  return {
    status: statusForKind(failure.kind),
    message: error.message,
    ...(failure.data !== undefined ? { data: failure.data } : {}),
    error,
    ...(failure.suggestion ? { suggestion: redact(failure.suggestion) } : {}),
    ...(guidance ? { guidance: redact(guidance) } : {}),
    ...(escalation ? { escalate: true, instruction: escalation } : {}),
    metadata: meta({
      cached: f.cache === "hit",
      ...(failure.status !== undefined ? { upstreamStatus: failure.status } : {}),
    }),
  } as ToolResult;
};
