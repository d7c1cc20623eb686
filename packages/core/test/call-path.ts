import { Layer, Tracer } from "effect";
import { type CatalogOptions, createCatalog as createCatalogOn } from "../src/index.js";

/**
 * The path this test run's calls take. A tool's policies run on one of two paths: without a fiber
 * (the direct call, taken when no tracer is installed) or through the tool's Effect pipeline (a
 * tracer installed, a shared store, a rate limit in "delay" mode). Both compose the same policies and
 * must behave the same, so the policy tests run twice: on the direct call, and in the vitest project
 * `@quiver/core:effect-path`, which sets `QUIVER_CALL_PATH=effect`.
 */
export const CALL_PATH: "direct" | "effect" = process.env.QUIVER_CALL_PATH === "effect" ? "effect" : "direct";

/** Spans made in this process (on the Effect path): how a test sees which path its calls took. */
export const spansMade = { count: 0 };

const tracing = Layer.succeed(
  Tracer.Tracer,
  Tracer.make({
    span(options) {
      spansMade.count++;
      return new Tracer.NativeSpan(options);
    },
  }),
);

/** `createCatalog`, on this test run's call path (with a tracer installed on the Effect path). */
export const createCatalog = (options: CatalogOptions = {}) =>
  CALL_PATH === "effect"
    ? createCatalogOn({ ...options, layer: options.layer ? Layer.merge(options.layer, tracing) : tracing })
    : createCatalogOn(options);
