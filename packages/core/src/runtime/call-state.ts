import * as Context from "effect/Context";
import type { Deadline } from "../policies/deadline.js";
import type { CallOptions, SessionContext } from "./call-types.js";

/**
 * What one call owns while it runs. A tool's pipeline is built once, at its first call; it reads the
 * call it serves from the fiber's context (`CurrentCall`), where the catalog puts this object when it
 * starts the call's fiber. Child fibers (the timeout's run) inherit it.
 */
export class CallState {
  /** Attempts made so far (1 for the first run). */
  attempts = 0;
  /** What the tool reported with `ctx.reportPartial`, returned with a timeout. */
  partialData: unknown = undefined;
  /** The timeout policy's deadline, while the call runs under it. */
  deadline: Deadline | undefined = undefined;
  constructor(
    readonly input: Record<string, unknown>,
    readonly options: CallOptions,
    readonly session: SessionContext,
    readonly callId: string,
    /** Tool, caller and canonical input; empty when neither the cache nor a stale fallback needs it. */
    readonly cacheId: string,
    /** When the call started, on the policy clock's monotonic time: the policies' "now". */
    readonly startedAt: number,
  ) {}
}

/** The call a fiber serves. */
export const CurrentCall = Context.Service<CallState>("@quiver/core/CurrentCall");

/** The call state in a fiber's context (set by the catalog when it started the call). */
export const callIn = (context: unknown): CallState =>
  Context.getUnsafe(context as Context.Context<CallState>, CurrentCall);
