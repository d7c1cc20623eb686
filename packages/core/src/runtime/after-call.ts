import type { ErrorKind } from "../error-kinds.js";
import { DEFAULT_SESSION_ID, type Outcome } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { SessionTracker } from "./session-tracker.js";
import { type SharedStore, sharedKey } from "./shared-store.js";
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
  /**
   * Where escalation counts and last good results are shared with other replicas, if anywhere
   * (written there as well as here; read from here first).
   */
  readonly shared?: SharedStore | undefined;
}

/** How long a shared failure count lives after the last failure (a conversation gone quiet is forgotten). */
const SHARED_FAILURES_TTL_MS = 60 * 60_000;
/** How long a shared last good result is kept for the `stale` fallback. */
const SHARED_STALE_TTL_MS = 24 * 60 * 60_000;

const ignore = () => undefined;

const NOTHING: Settled = Object.freeze({ escalate: false, stale: undefined });

/** The model's mistakes (a bad argument, a request outside the tool's domain), not the tool's failures. */
const MODEL_MISTAKES: ReadonlySet<ErrorKind> = new Set(["invalid_input", "out_of_domain"]);

/**
 * The step after a call ended: counts consecutive failures per caller, conversation and tool (a
 * success resets the count), keeps the last good result of tools with the `stale` fallback, and says
 * what the envelope adds from that memory. A bad argument or an out-of-domain request is the model's
 * mistake, not the tool's failure: it neither counts nor falls back to a stale result. A call without
 * a session id counts in its principal's {@link DEFAULT_SESSION_ID} session. With a shared store a
 * failure's answer is a promise: the count and the last good result are read there (this process's
 * own memory when the store cannot answer).
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
): Settled | Promise<Settled> => {
  if (outcome._tag === "NeedsConfirmation" || outcome._tag === "FellBack") return NOTHING;
  // Built only when a count is read or written (a success with no failures recorded skips it).
  const session = () => `${call.principal ?? ""}\u0000${call.sessionId ?? DEFAULT_SESSION_ID}`;
  const shared = memory.shared;
  if (outcome._tag === "Succeeded") {
    if (memory.sessions.tracking) memory.sessions.succeeded(session(), reg.name);
    if (shared && outcome.cache !== "hit") {
      shared.delete("failures", sharedKey(`${session()}\u0000${reg.name}`)).catch(ignore);
    }
    if (reg.policy.fallback?.stale && outcome.cache !== "hit" && call.cacheId) {
      memory.stale.set(call.cacheId, outcome.executed.data);
      if (shared) shareStale(reg, shared, call.cacheId, outcome.executed.data, memory.now());
    }
    return NOTHING;
  }
  if (MODEL_MISTAKES.has(outcome.failure.kind)) return NOTHING;
  if (shared) return settleShared(reg, call.cacheId, session(), memory, shared);
  const escalate = memory.sessions.failed(session(), reg.name) >= reg.policy.escalateAfter;
  const kept = reg.policy.fallback?.stale && call.cacheId ? memory.stale.get(call.cacheId) : undefined;
  const stale = kept ? { ...kept, ageMs: Math.max(0, memory.now() - kept.at) } : undefined;
  return escalate || stale ? { escalate, stale } : NOTHING;
};

/** Writes a last good result to the shared store, in the background, the plugin's secrets redacted. */
const shareStale = (
  reg: RegisteredTool,
  shared: SharedStore,
  cacheId: string,
  data: unknown,
  at: number,
): void => {
  let text: string;
  try {
    text = JSON.stringify({ data, at });
  } catch {
    return;
  }
  text = reg.redactData(text);
  shared.set("stale", sharedKey(cacheId), text, SHARED_STALE_TTL_MS).catch(ignore);
};

/** A failure's memory with a shared store: the count across replicas, the last good result of any. */
const settleShared = async (
  reg: RegisteredTool,
  cacheId: string,
  session: string,
  memory: CallMemory,
  shared: SharedStore,
): Promise<Settled> => {
  const local = memory.sessions.failed(session, reg.name);
  const count = await shared
    .increment("failures", sharedKey(`${session}\u0000${reg.name}`), SHARED_FAILURES_TTL_MS)
    .catch(() => local);
  const escalate = count >= reg.policy.escalateAfter;
  let kept: { data: unknown; at: number } | undefined;
  if (reg.policy.fallback?.stale && cacheId) {
    kept = memory.stale.get(cacheId);
    if (!kept) {
      kept = await shared
        .get("stale", sharedKey(cacheId))
        .then(
          (text) => (text === undefined ? undefined : (JSON.parse(text) as { data: unknown; at: number })),
          ignore,
        );
    }
  }
  const stale = kept ? { ...kept, ageMs: Math.max(0, memory.now() - kept.at) } : undefined;
  return escalate || stale ? { escalate, stale } : NOTHING;
};
