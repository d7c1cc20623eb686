import { hash } from "node:crypto";
import type { MaybePromise } from "./store-driver.js";

/**
 * A store key for a text that holds an input, a principal or a token: its SHA-256 (base64url), so
 * the text never enters the store. Put a readable namespace in front: `cache:${storeKey(id)}`.
 *
 * @example
 * const key = `confirm:${storeKey(token)}`
 */
export const storeKey = (text: string): string => hash("sha256", text, "base64url");

/**
 * Runs `then` on a driver's answer: at once when the driver answered at once (the memory driver, so
 * a call on it never waits a microtask), else when its promise resolves.
 */
export const whenReady = <A, B>(
  answer: MaybePromise<A>,
  then: (value: A) => MaybePromise<B>,
): MaybePromise<B> => (answer instanceof Promise ? answer.then(then) : then(answer));
