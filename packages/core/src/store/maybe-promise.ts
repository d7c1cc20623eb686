import * as Effect from "effect/Effect";
import type { MaybePromise } from "./store-driver.js";

/**
 * Runs `then` on a driver's answer: at once when the driver answered at once (the memory driver, so
 * a call on it never waits a microtask), else when its promise resolves.
 */
export const whenReady = <A, B>(
  answer: MaybePromise<A>,
  then: (value: A) => MaybePromise<B>,
): MaybePromise<B> => (answer instanceof Promise ? answer.then(then) : then(answer));

/** A driver's answer as an Effect: no promise when the driver answered at once. */
export const lift = <A>(answer: MaybePromise<A>): Effect.Effect<A> =>
  answer instanceof Promise ? Effect.promise(() => answer) : Effect.succeed(answer);

/** The Effect `then` makes of a driver's answer: at once when it answered at once (no extra step). */
export const after = <A, B, R>(
  answer: MaybePromise<A>,
  then: (value: A) => Effect.Effect<B, never, R>,
): Effect.Effect<B, never, R> =>
  answer instanceof Promise
    ? Effect.flatMap(
        Effect.promise(() => answer),
        then,
      )
    : then(answer);
