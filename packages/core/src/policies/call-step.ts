import type * as Effect from "effect/Effect";
import type { ToolFailure } from "../errors.js";

/**
 * The rest of a call from one policy on: given the call, the Effect that runs it. A policy wraps the
 * step after it (`(next) => step`) and reads the call it is given, so a tool's pipeline is composed
 * once and each call is an argument, not a lookup in the fiber's context.
 *
 * A step is called where the call runs (the pipeline starts inside `Effect.suspend`): a policy's own
 * check (a token, a closed circuit, a deadline) is plain code in that step, and it wraps the Effect
 * of the step after it in Effect's operators only where the call can wait, fail or be retried.
 */
export type CallStep<S, A> = (call: S) => Effect.Effect<A, ToolFailure>;
