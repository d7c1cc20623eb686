import type { ErrorKind } from "../error-kinds.js";
import { whenReady } from "../store/maybe-promise.js";
import type { MaybePromise, StoreDriver } from "../store/store-driver.js";
import { DEFAULT_SESSION_ID, type Outcome } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";

/** What the runtime remembers across calls and adds to an envelope: escalation and stale results. */
export interface Settled {
  /** The tool has now failed `escalateAfter` times in a row in this conversation. */
  readonly escalate: boolean;
  /** The last good result, for a tool with the `stale` fallback that failed. */
  readonly stale: { readonly data: unknown; readonly at: number; readonly ageMs: number } | undefined;
}

/** Where `settle` keeps its memory: the catalog's store, and the runtime's clock. */
export interface CallMemory {
  /** Failure counts (`failures:…`) and last good results (`stale:…`), seen by every process on it. */
  readonly store: StoreDriver;
  /** The runtime's clock, in milliseconds since the epoch. */
  readonly now: () => number;
}

/** How long a failure count lives after the last failure (a conversation gone quiet is forgotten). */
const FAILURES_TTL_MS = 60 * 60_000;
/** How long a last good result is kept for the `stale` fallback: days past a cached tool's entry. */
const STALE_TTL_MS = 7 * 24 * 60 * 60_000;

const NOTHING: Settled = Object.freeze({ escalate: false, stale: undefined });

/** The model's mistakes (a bad argument, a request outside the tool's domain), not the tool's failures. */
const MODEL_MISTAKES: ReadonlySet<ErrorKind> = new Set(["invalid_input", "out_of_domain"]);

/**
 * The step after a call ended: counts consecutive failures per caller, conversation and tool (a
 * success resets the count), keeps the last good result of tools with the `stale` fallback, and says
 * what the envelope adds from that memory. A bad argument or an out-of-domain request is the model's
 * mistake, not the tool's failure: it neither counts nor falls back to a stale result. A call without
 * a session id counts in its principal's {@link DEFAULT_SESSION_ID} session. Everything is in the
 * catalog's store (a promise only when the store answers later, as Redis does).
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
): MaybePromise<Settled> => {
  if (outcome._tag === "NeedsConfirmation" || outcome._tag === "FellBack") return NOTHING;
  const { store } = memory;
  const failuresKey = () =>
    `failures:${store.key(`${call.principal ?? ""}\u0000${call.sessionId ?? DEFAULT_SESSION_ID}\u0000${reg.name}`)}`;
  const staleKey =
    reg.policy.fallback?.stale && call.cacheId ? `stale:${store.key(call.cacheId)}` : undefined;
  if (outcome._tag === "Succeeded") {
    // A hit ran nothing: it neither resets a count nor is a newer good result.
    if (outcome.cache === "hit") return NOTHING;
    // Not awaited: the envelope does not depend on them (a driver never rejects).
    store.delete(failuresKey());
    if (staleKey) keepStale(reg, store, staleKey, outcome.executed.data, memory.now());
    return NOTHING;
  }
  if (MODEL_MISTAKES.has(outcome.failure.kind)) return NOTHING;
  return whenReady(store.increment(failuresKey(), FAILURES_TTL_MS), (count) => {
    const escalate = count >= reg.policy.escalateAfter;
    if (!staleKey) return escalate ? { escalate, stale: undefined } : NOTHING;
    return whenReady(store.get(staleKey), (text): Settled => {
      const kept = parseStale(text);
      const stale = kept ? { ...kept, ageMs: Math.max(0, memory.now() - kept.at) } : undefined;
      return escalate || stale ? { escalate, stale } : NOTHING;
    });
  });
};

/** Stores a last good result, the plugin's secrets redacted (one that is not JSON is not kept). */
const keepStale = (
  reg: RegisteredTool,
  store: StoreDriver,
  key: string,
  data: unknown,
  at: number,
): MaybePromise<void> => {
  let text: string;
  try {
    text = JSON.stringify({ data, at });
  } catch {
    return undefined;
  }
  return store.set(key, reg.redactData(text), STALE_TTL_MS);
};

const parseStale = (text: string | undefined): { data: unknown; at: number } | undefined => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as { data: unknown; at: number };
  } catch {
    return undefined;
  }
};
