import type { ErrorKind } from "../error-kinds.js";
import { DEFAULT_SESSION_ID, type Outcome } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { SessionTracker } from "./session-tracker.js";
import type { StaleStore } from "./stale-store.js";

/** What the runtime remembers across calls and adds to an envelope: escalation and stale results. */
export interface Settled {
  /** The tool has now failed `escalateAfter` times in a row in this conversation. */
  readonly escalate: boolean;
  /** The last good result, for a tool with the `stale` fallback that failed. */
  readonly stale: { readonly data: unknown; readonly at: number; readonly ageMs: number } | undefined;
}

/** The stores `settle` keeps its memory in. */
export interface CallMemory {
  readonly sessions: SessionTracker;
  readonly stale: StaleStore;
  /** The runtime's clock, in milliseconds since the epoch. */
  readonly now: () => number;
}

const NOTHING: Settled = Object.freeze({ escalate: false, stale: undefined });

/** The model's mistakes (a bad argument, a request outside the tool's domain), not the tool's failures. */
const MODEL_MISTAKES: ReadonlySet<ErrorKind> = new Set(["invalid_input", "out_of_domain"]);

/**
 * The step after a call ended: counts consecutive failures per caller, conversation and tool (a
 * success resets the count), keeps the last good result of tools with the `stale` fallback, and says
 * what the envelope adds from that memory. A bad argument or an out-of-domain request is the model's
 * mistake, not the tool's failure: it neither counts nor falls back to a stale result. A call without
 * a session id counts in its principal's {@link DEFAULT_SESSION_ID} session.
 */
export const settle = (
  reg: RegisteredTool,
  outcome: Outcome,
  call: {
    readonly principal?: string | undefined;
    readonly sessionId?: string | undefined;
    readonly cacheId: string;
  },
  memory: CallMemory,
): Settled => {
  if (outcome._tag === "NeedsConfirmation" || outcome._tag === "FellBack") return NOTHING;
  // Built only when a count is read or written (a success with no failures recorded skips it).
  const session = () => `${call.principal ?? ""}\u0000${call.sessionId ?? DEFAULT_SESSION_ID}`;
  if (outcome._tag === "Succeeded") {
    if (memory.sessions.tracking) memory.sessions.succeeded(session(), reg.name);
    if (reg.policy.fallback?.stale && outcome.cache !== "hit" && call.cacheId) {
      memory.stale.set(call.cacheId, outcome.executed.data);
    }
    return NOTHING;
  }
  if (MODEL_MISTAKES.has(outcome.failure.kind)) return NOTHING;
  const escalate = memory.sessions.failed(session(), reg.name) >= reg.policy.escalateAfter;
  const kept = reg.policy.fallback?.stale && call.cacheId ? memory.stale.get(call.cacheId) : undefined;
  const stale = kept ? { ...kept, ageMs: Math.max(0, memory.now() - kept.at) } : undefined;
  return escalate || stale ? { escalate, stale } : NOTHING;
};
