import type { CallTrace } from "./call-trace.js";
import type { CallOptions, SessionContext } from "./call-types.js";

/**
 * What one call owns while it runs. A tool's pipeline is built once, at its first call, and each call
 * runs it with its own state (`ToolPipeline.run(state)`); the policies read and update it.
 */
export class CallState {
  /** Attempts made so far (1 for the first run). */
  attempts = 0;
  /** What the tool reported with `ctx.reportPartial`, returned with a timeout. */
  partialData: unknown = undefined;
  constructor(
    readonly input: Record<string, unknown>,
    readonly options: CallOptions,
    readonly session: SessionContext,
    readonly callId: string,
    /** Tool, caller and canonical input; empty when neither the cache nor a stale fallback needs it. */
    readonly cacheId: string,
    /** When the call started, on the policy clock's monotonic time: its cache entry ages from it. */
    readonly startedAt: number,
    /** The call's spans, when a tracer is installed. */
    readonly trace?: CallTrace | undefined,
  ) {}
}
