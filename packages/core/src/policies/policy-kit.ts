import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as CircuitBreaker from "effect/persistence/CircuitBreaker";
import * as RateLimiter from "effect/persistence/RateLimiter";
import type * as Scope from "effect/Scope";
import type { StoreDriver } from "../store/store-driver.js";
import { makeBreaker } from "./breaker-policy.js";
import { rateLimitStep } from "./rate-limit-policy.js";

/**
 * What the breaker and rate-limit steps are built with: effect/persistence's RateLimiter and the
 * circuits' store, over the catalog's store driver, and the two step builders. The runtime imports
 * this module when the first tool with a breaker or a rate limit is called (or a resource is read),
 * so a host whose calls need neither never loads effect/persistence (nor what it pulls in: Schema,
 * crypto), and its idle memory stays that of the runtime alone.
 */
export interface PolicyKit {
  /** The runtime's context with the RateLimiter and the circuits' store. */
  readonly context: Context.Context<never>;
  readonly makeBreaker: typeof makeBreaker;
  readonly rateLimitStep: typeof rateLimitStep;
}

/**
 * Builds the kit in the runtime's `scope` (closed with it): the driver's `policyStores` (Redis's
 * `layerStoreRedis`) when it has them, else this process's memory.
 */
export const buildPolicyKit = (
  base: Context.Context<never>,
  stores: StoreDriver["policyStores"],
  scope: Scope.Scope,
): Effect.Effect<PolicyKit> => {
  const layer = RateLimiter.layer.pipe(
    Layer.provideMerge(
      stores ?? Layer.mergeAll(RateLimiter.layerStoreMemory, CircuitBreaker.layerStoreMemory()),
    ),
  );
  return Effect.map(Layer.buildWithScope(layer, scope), (services) => ({
    context: Context.merge(base, services as Context.Context<never>),
    makeBreaker,
    rateLimitStep,
  }));
};
