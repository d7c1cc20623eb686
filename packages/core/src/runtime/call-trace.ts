import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import type * as Exit from "effect/Exit";
import * as HttpTraceContext from "effect/http/HttpTraceContext";
import * as Option from "effect/Option";
import type * as Tracer from "effect/Tracer";
import type { ToolResult } from "../envelope.js";
import type { ToolFailure } from "../errors.js";
import { requestParent } from "../http/request-span.js";
import type { CallOptions, SessionContext } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { Spans } from "./spans.js";
import { type TraceContext, traceparentOf } from "./trace-context.js";

/** A traced attempt, as the attempt's runner sees it. */
export interface AttemptSpan {
  /** The attempt's span: the parent of the spans an Effect tool makes. */
  readonly span: Tracer.Span;
  /** Runs `f` (the tool's `run`) with the attempt as the parent of the upstream requests it makes. */
  readonly enter: <T>(f: () => T) => T;
}

/**
 * The spans of one traced call, per the OpenTelemetry GenAI conventions: the transport's server span
 * when the caller describes one (an MCP `tools/call`), an `execute_tool <tool>` span (INTERNAL) with
 * `gen_ai.*` attributes and Quiver's own under `quiver.`, one span per attempt and, through the
 * attempt's HTTP client, one CLIENT span per upstream request. The first span's parent is the
 * caller's `traceparent` when it gave one.
 */
export class CallTrace {
  private readonly transport: Tracer.Span | undefined;
  /** The `execute_tool` span. */
  readonly span: Tracer.Span;
  private readonly tracestate: string | undefined;

  constructor(
    private readonly spans: Spans,
    reg: RegisteredTool,
    callId: string,
    options: CallOptions,
    session: SessionContext,
    /** Record the caller's principal as `quiver.principal` (off by default: it names a person). */
    tracePrincipal: boolean,
  ) {
    const caller = parentOf(options.trace);
    this.tracestate = options.trace?.tracestate;
    this.transport = options.transportSpan
      ? spans.start(options.transportSpan.name, "server", caller, options.transportSpan.attributes)
      : undefined;
    this.span = spans.start(`execute_tool ${reg.name}`, "internal", this.transport ?? caller, {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": reg.name,
      "gen_ai.tool.call.id": callId,
      "gen_ai.tool.type": "function",
      "gen_ai.conversation.id": session.id,
      "quiver.plugin": reg.pluginId,
      "quiver.principal": tracePrincipal ? session.principal : undefined,
    });
  }

  /**
   * One attempt in its span (a child of `execute_tool`): `run` gets the attempt's {@link AttemptSpan},
   * whose `enter` runs the tool's `run` with the attempt as the parent of every upstream request it
   * makes (`requestParent`). The span is not made the call fiber's parent span: that costs every
   * traced call more than all its spans do. Only an Effect a tool returns runs under it
   * (`Effect.withParentSpan`), so the spans that tool makes itself join the call's trace.
   */
  attempt<A>(
    attempt: number,
    run: (scope: AttemptSpan) => Effect.Effect<A, ToolFailure>,
  ): Effect.Effect<A, ToolFailure> {
    return Effect.suspend(() => {
      const span = this.spans.start("quiver.attempt", "internal", this.span, { "quiver.attempt": attempt });
      const parent = { spans: this.spans, span, tracestate: this.tracestate };
      return run({ span, enter: (f) => requestParent.run(parent, f) }).pipe(
        Effect.onExit((exit: Exit.Exit<A, ToolFailure>) =>
          Effect.sync(() => this.spans.end(span, attemptError(exit))),
        ),
      );
    });
  }

  /** The trace context of a call this one makes (its fallback, `ctx.callTool`): a child of `execute_tool`. */
  childContext(): TraceContext {
    return { traceparent: traceparentOf(this.span), tracestate: this.tracestate };
  }

  /** Ends the spans with what the call's envelope says. */
  end(envelope: ToolResult): void {
    const { status, error, metadata } = envelope;
    const failed = status !== "success" && status !== "partial" && error !== undefined;
    const spanError = failed ? { type: error.kind, message: envelope.message } : undefined;
    this.spans.end(this.span, spanError, {
      "quiver.status": status,
      "quiver.error.kind": error?.kind,
      "quiver.attempts": metadata.attempts,
      "quiver.cached": metadata.cached,
      "quiver.stale": metadata.stale ?? false,
    });
    if (this.transport) this.spans.end(this.transport, spanError);
  }
}

/** The caller's span, from its `traceparent`; undefined (a new trace) when it gave none or a malformed one. */
const parentOf = (trace: TraceContext | undefined): Tracer.AnySpan | undefined =>
  trace
    ? Option.getOrUndefined(HttpTraceContext.w3c({ traceparent: trace.traceparent } as never))
    : undefined;

/** How an attempt failed, for its span: the failure's kind, or an interruption (timeout, cancellation). */
const attemptError = (exit: Exit.Exit<unknown, ToolFailure>) => {
  if (exit._tag === "Success") return undefined;
  const failure = Cause.findErrorOption(exit.cause);
  return failure._tag === "Some"
    ? { type: failure.value.kind, message: failure.value.message }
    : { type: "interrupted", message: "The attempt was interrupted (a timeout or a cancellation)." };
};
