import type { ErrorKind } from "../error-kinds.js";
import type { ToolFailure } from "../errors.js";
import { DEFAULT_SESSION_ID } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { fromStoredJson, type MaybePromise, type StoreDriver, whenReady } from "../store/store-driver.js";

/** What the memory step adds to a failed call's envelope: escalation and the last good result. */
export interface Recalled {
  /** The tool has now failed `escalateAfter` times in a row in this conversation. */
  readonly escalate: boolean;
  /** The last good result, for a tool with the `stale` fallback that failed. */
  readonly stale: { readonly data: unknown; readonly at: number; readonly ageMs: number } | undefined;
}

/** Whose call it was, and its cache id (empty when the tool keeps no results by input). */
export interface CallKey {
  readonly principal: string | undefined;
  readonly sessionId: string | undefined;
  readonly cacheId: string;
}

/** How long a failure count lives after the last failure (a conversation gone quiet is forgotten). */
const FAILURES_TTL_MS = 60 * 60_000;
/** How long a last good result is kept for the `stale` fallback: days past a cached tool's entry. */
const STALE_TTL_MS = 7 * 24 * 60 * 60_000;

/** Nothing to add. */
export const NOTHING_RECALLED: Recalled = Object.freeze({ escalate: false, stale: undefined });

/** The model's mistakes (a bad argument, a request outside the tool's domain), not the tool's failures. */
const MODEL_MISTAKES: ReadonlySet<ErrorKind> = new Set(["invalid_input", "out_of_domain"]);

const failuresKey = (reg: RegisteredTool, call: CallKey, store: StoreDriver) =>
  `failures:${store.key(`${call.principal ?? ""}\u0000${call.sessionId ?? DEFAULT_SESSION_ID}\u0000${reg.name}`)}`;

const staleKey = (reg: RegisteredTool, call: CallKey, store: StoreDriver) =>
  reg.policy.fallback?.stale && call.cacheId ? `stale:${store.key(call.cacheId)}` : undefined;

/**
 * The memory step after a run that succeeded (a cache hit ran nothing, and is not remembered): the
 * tool's failure count in this conversation is reset, and a tool with the `stale` fallback keeps
 * this result as its last good one. Not awaited: the envelope does not depend on it (a driver never
 * rejects). Counts are per caller, conversation and tool; a call without a session id counts in
 * its principal's {@link DEFAULT_SESSION_ID} session. Everything is in the catalog's store.
 */
export const rememberSuccess = (
  reg: RegisteredTool,
  call: CallKey,
  data: unknown,
  store: StoreDriver,
  now: number,
): void => {
  store.delete(failuresKey(reg, call, store));
  const key = staleKey(reg, call, store);
  if (key) keepStale(reg, store, key, data, now);
};

/**
 * The memory step after a failure: counts it (a bad argument or an out-of-domain request is the
 * model's mistake, not the tool's failure: it neither counts nor falls back to a stale result) and
 * recalls what the envelope adds: `escalate` once the count reaches `escalateAfter`, and the last
 * good result of a tool with the `stale` fallback. A promise only when the store answers later.
 */
export const rememberFailure = (
  reg: RegisteredTool,
  call: CallKey,
  failure: ToolFailure,
  store: StoreDriver,
  now: () => number,
): MaybePromise<Recalled> => {
  if (MODEL_MISTAKES.has(failure.kind)) return NOTHING_RECALLED;
  const key = staleKey(reg, call, store);
  return whenReady(store.increment(failuresKey(reg, call, store), FAILURES_TTL_MS), (count) => {
    const escalate = count >= reg.policy.escalateAfter;
    if (!key) return escalate ? { escalate, stale: undefined } : NOTHING_RECALLED;
    return whenReady(store.get(key), (text): Recalled => {
      const kept = fromStoredJson<{ data: unknown; at: number }>(text);
      const stale = kept ? { ...kept, ageMs: Math.max(0, now() - kept.at) } : undefined;
      return escalate || stale ? { escalate, stale } : NOTHING_RECALLED;
    });
  });
};

/** Stores a last good result, the plugin's secrets redacted (one that is not JSON is not kept). */
const keepStale = (reg: RegisteredTool, store: StoreDriver, key: string, data: unknown, at: number) => {
  try {
    store.set(key, reg.redactData(JSON.stringify({ data, at })), STALE_TTL_MS);
  } catch {} // not JSON (a BigInt, a cycle): nothing kept
};
