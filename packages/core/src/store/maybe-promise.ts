import type { MaybePromise } from "./store-driver.js";

/**
 * Runs `then` on a driver's answer: at once when the driver answered at once (the memory driver, so
 * a call on it never waits a microtask), else when its promise resolves.
 */
export const whenReady = <A, B>(
  answer: MaybePromise<A>,
  then: (value: A) => MaybePromise<B>,
): MaybePromise<B> => (answer instanceof Promise ? answer.then(then) : then(answer));
