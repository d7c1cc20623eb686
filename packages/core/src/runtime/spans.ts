import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Exit from "effect/Exit";
import * as Option from "effect/Option";
import type * as Tracer from "effect/Tracer";
import * as TracerService from "effect/Tracer";

/** Attribute values a span carries: never an input, a body or a secret. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** Why a span's operation failed: its `error.type` (low cardinality) and a message already redacted. */
export type SpanError = { readonly type: string; readonly message: string };

/**
 * What a failed span ends with. Effect's exporters turn a failure into the span's status and an
 * `exception` event from the error's name, message and stack; this error's stack is its message
 * alone, so no frame, cause or unredacted text reaches the backend.
 */
class SpanFailure extends Error {
  constructor(error: SpanError) {
    super(error.message);
    this.name = error.type;
    this.stack = `${error.type}: ${error.message}`;
  }
}

/**
 * Starts and ends spans on the runtime's tracer by hand, outside the call's fiber: a call's
 * `execute_tool` span ends after its envelope is made (its status, cache and stale facts are only
 * known then), and an upstream request's span is a Promise's, not an Effect's.
 */
export class Spans {
  private constructor(
    private readonly tracer: Tracer.Tracer,
    private readonly clock: Clock.Clock,
  ) {}

  /** The spans of the runtime's context (its tracer and clock). */
  static of(context: Context.Context<never>): Spans {
    return new Spans(Context.get(context, TracerService.Tracer), Context.get(context, Clock.Clock));
  }

  /** Starts a span; a child of `parent`, or the root of a new trace. Undefined attributes are left out. */
  start(
    name: string,
    kind: Tracer.SpanKind,
    parent: Tracer.AnySpan | undefined,
    attributes: SpanAttributes,
  ): Tracer.Span {
    const span = this.tracer.span({
      name,
      parent: parent ? Option.some(parent) : Option.none(),
      annotations: Context.empty(),
      links: [],
      startTime: this.clock.currentTimeNanosUnsafe(),
      kind,
      root: parent === undefined,
      // A root is sampled unless the installed tracer's sampler says otherwise; a child follows its parent.
      sampled: parent ? parent.sampled : true,
    });
    set(span, attributes);
    return span;
  }

  /** Ends a span, failed with `error.type` when `error` is given. */
  end(span: Tracer.Span, error?: SpanError, attributes?: SpanAttributes): void {
    if (attributes) set(span, attributes);
    if (error) span.attribute("error.type", error.type);
    span.end(this.clock.currentTimeNanosUnsafe(), error ? Exit.fail(new SpanFailure(error)) : Exit.void);
  }
}

const set = (span: Tracer.Span, attributes: SpanAttributes): void => {
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) span.attribute(key, value);
  }
};
