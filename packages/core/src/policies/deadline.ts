import * as Effect from "effect/Effect";
import type { ToolFailure } from "../errors.js";

/**
 * A call's deadline, set by the timeout policy: the failure it ends the call with once its timer has
 * fired, and the waits it ends then.
 *
 * A wait is a place where the call is suspended: an attempt's promise holds the deadline with a
 * function that aborts the attempt and resumes the call with the failure, so on the usual path (one
 * attempt, a promise) a timeout costs one timer and no fiber. Anything else (a tool that returns an
 * Effect, the backoff between retries) is run under `race`, a child fiber the deadline interrupts.
 */
export class Deadline {
  /** The timeout failure, once the timer has fired. */
  failure: ToolFailure | undefined = undefined;
  /** The innermost wait holding the deadline (most calls have one), then any others. */
  #wait: (() => void) | undefined = undefined;
  #others: Array<() => void> | undefined = undefined;

  /** Called by the timer: ends every wait holding the deadline with `failure`. */
  expire(failure: ToolFailure): void {
    if (this.failure) return;
    this.failure = failure;
    const wait = this.#wait;
    const others = this.#others;
    this.#wait = undefined;
    this.#others = undefined;
    // Newest first: an outer wait (a race's child fiber) ends before the waits inside it.
    if (others) for (let i = others.length - 1; i >= 0; i--) others[i]?.();
    wait?.();
  }

  /** `end` is called if the deadline passes before `release(end)`. */
  hold(end: () => void): void {
    if (this.#wait === undefined) this.#wait = end;
    else if (this.#others) this.#others.push(end);
    else this.#others = [end];
  }

  /** The wait `end` is over: the deadline no longer ends it. */
  release(end: () => void): void {
    if (this.#wait === end) this.#wait = undefined;
    else if (this.#others) {
      const at = this.#others.indexOf(end);
      if (at >= 0) this.#others.splice(at, 1);
    }
  }

  /**
   * Runs `self` in a child fiber that the deadline interrupts: for waits that cannot hold the deadline
   * themselves. Fails with the deadline's failure at once if it has passed.
   */
  race<A, R>(self: Effect.Effect<A, ToolFailure, R>): Effect.Effect<A, ToolFailure, R> {
    return Effect.withFiber((parent) => {
      if (this.failure) return Effect.fail(this.failure);
      return Effect.callback<A, ToolFailure, R>((resume) => {
        const child = Effect.runForkWith(parent.context as never)(self as Effect.Effect<A, ToolFailure>);
        const done = child.pollUnsafe();
        if (done) {
          resume(done);
          return;
        }
        let settled = false;
        const end = () => {
          if (settled) return;
          settled = true;
          child.interruptUnsafe();
          resume(Effect.fail(this.failure as ToolFailure));
        };
        this.hold(end);
        child.addObserver((exit) => {
          if (settled) return;
          settled = true;
          this.release(end);
          resume(exit);
        });
        // The caller went away (cancellation, shutdown): stop the run.
        return Effect.sync(() => {
          settled = true;
          this.release(end);
          child.interruptUnsafe();
        });
      });
    });
  }
}

/** What a call carries for the timeout policy: its deadline while one is set. */
export interface HasDeadline {
  deadline: Deadline | undefined;
}
