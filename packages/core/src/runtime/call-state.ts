import { Context, type Fiber } from "effect";
import type { CallOptions, SessionContext } from "./execute-tool.js";

/**
 * What one call owns while it runs. The policies around a tool are built once, at its first call;
 * they read the call they serve from the fiber's context (`CurrentCall`), where the catalog puts
 * this object when it starts the call's fiber. Forked fibers (the cache lookup, the timeout race)
 * inherit it, so a coalesced execution runs with the state of the call that started it.
 */
export class CallState {
  /** Attempts made so far (1 for the first run). */
  attempts = 0;
  /** What the tool reported with `ctx.reportPartial`, returned with a timeout. */
  partialData: unknown = undefined;
  /** Set by the cache lookup: true for the one caller whose call actually ran. */
  ran = false;
  constructor(
    readonly input: Record<string, unknown>,
    readonly options: CallOptions,
    readonly session: SessionContext,
    readonly callId: string,
    readonly started: number,
    /** Tool, caller and canonical input; empty when neither the cache nor a stale fallback needs it. */
    readonly cacheId: string,
  ) {}
}

/** The call a fiber serves. */
export const CurrentCall = Context.Service<CallState>("@quiver/core/CurrentCall");

/** The call state of a fiber started by the catalog. */
export const callOf = (fiber: Fiber.Fiber<unknown, unknown>): CallState =>
  Context.getUnsafe(fiber.context as Context.Context<CallState>, CurrentCall);
