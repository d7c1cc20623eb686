import type * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type { Caller } from "../caller.js";
import type { ToolResult } from "../envelope.js";
import { fail, ToolFailure } from "../errors.js";
import type { HttpClient } from "../http/index.js";
import type { AttemptSpan, CallTrace } from "../runtime/call-trace.js";
import type { CallOptions, SessionContext } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { validateSync } from "../schema/validate.js";
import type { ToolContext } from "../tool-context.js";
import { isOutcome } from "../tool-outcome.js";

/** The catalog's services a tool's context hands on: the HTTP client, the clock and the other tools. */
export interface ContextServices {
  readonly http: HttpClient;
  /** The catalog's clock (the live one, or the `clock` option). */
  readonly clock: Clock.Clock;
  readonly callTool: (name: string, input: unknown, options: CallOptions) => Promise<ToolResult>;
  readonly hasTool: (name: string) => boolean;
}

/** The run step's answer: the tool's output, checked against its output schema, and what it said. */
export interface RunOutput {
  readonly data: unknown;
  readonly partial: boolean;
  readonly message: string | undefined;
  readonly instruction: string | undefined;
  readonly source: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  /** The attempt that produced it (1 for the first run). */
  readonly attempts: number;
}

/** What one call's attempts share: the call, and what they report back to it. */
export interface AttemptState {
  readonly reg: RegisteredTool;
  readonly input: Record<string, unknown>;
  readonly options: CallOptions;
  readonly session: SessionContext;
  readonly callId: string;
  /** The call's spans, when a tracer is installed: the tools it calls (`ctx.callTool`) join its trace. */
  readonly trace: CallTrace | undefined;
  /** Attempts made so far. */
  attempts: number;
  /** What the tool reported with `ctx.reportPartial`, returned with a timeout. */
  partialData: unknown;
}

/** Who is calling, from the call's session. */
export const callerOf = (session: SessionContext): Caller => ({
  principal: session.principal,
  groups: session.groups ?? [],
  clientId: session.clientId,
  scopes: session.scopes,
  sessionId: session.id,
  session: session.values ?? {},
});

/** The context one attempt of a tool (or its preview) runs with. */
export const toolContext = (
  call: Omit<AttemptState, "attempts" | "partialData">,
  services: ContextServices,
  attempt: Readonly<{ number: number; signal: AbortSignal; onPartial: (d: unknown) => void }>,
): ToolContext => {
  const { reg, options, session } = call;
  return {
    call: { id: call.callId, tool: reg.name, plugin: reg.pluginId, attempt: attempt.number },
    caller: callerOf(session),
    signal: attempt.signal,
    config: reg.config.ok ? reg.config.config : undefined,
    resources: reg.resources.current,
    http: services.http,
    progress: (p) => options.onProgress?.(p),
    log: (level, message, data) =>
      options.onLog?.(data === undefined ? { level, message } : { level, message, data }),
    client: options.client ?? {},
    reportPartial: attempt.onPartial,
    callTool: (name, input) =>
      services.callTool(name, input, {
        session,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(call.trace ? { trace: call.trace.childContext() } : {}),
      }),
    hasTool: services.hasTool,
    clock: services.clock,
    ...(options.task ? { task: options.task } : {}),
  };
};

/**
 * The run step, one attempt: opens the plugin's resources if needed, calls the tool's `run` and lifts
 * its plain value, Promise or Effect into Effect (once), then checks the output against the tool's
 * schema. An interrupted attempt (timeout, cancellation, shutdown) aborts `ctx.signal`.
 */
export const runTool = (
  state: AttemptState,
  services: ContextServices,
  /** Traced: the attempt's span, which the tool's HTTP requests and its own Effect spans are under. */
  traced?: AttemptSpan,
): Effect.Effect<RunOutput, ToolFailure> => {
  const { reg } = state;
  if (!reg.resources.isReady)
    return Effect.flatMap(openResources(reg), () => runTool(state, services, traced));
  const attempt = ++state.attempts;
  const abort = new AbortController();
  const onPartial = (d: unknown) => {
    state.partialData = d;
  };
  const ctx = toolContext(state, services, { number: attempt, signal: abort.signal, onPartial });
  let result: unknown;
  try {
    const call = () => reg.tool.run(state.input as never, ctx);
    const run = traced ? () => traced.enter(call) : call;
    // A recording or replaying HttpClient learns which call the run's requests belong to.
    result = services.http.withToolCall
      ? services.http.withToolCall(
          {
            tool: reg.name,
            plugin: reg.pluginId,
            callId: state.callId,
            input: state.input,
            principal: state.session.principal,
            secrets: reg.secrets,
          },
          run,
        )
      : run();
  } catch (error) {
    return Exit.fail(toFailure(error, reg.name));
  }
  if (Effect.isEffect(result)) {
    const effect = result as Effect.Effect<unknown, unknown>;
    return (traced ? Effect.withParentSpan(effect, traced.span) : effect).pipe(
      Effect.mapError((e) => toFailure(e, reg.name)),
      Effect.catchDefect((defect) => Effect.fail(toFailure(defect, reg.name))),
      Effect.flatMap((out) => checkOutput(reg, out, attempt)),
      Effect.onInterrupt(() => Effect.sync(() => abort.abort())),
    );
  }
  if (!isPromiseLike(result)) return checkOutput(reg, result, attempt);
  const promise = result;
  // The Promise lifted: interrupted while it is pending, the run is aborted.
  return Effect.callback<RunOutput, ToolFailure>((resume) => {
    promise.then(
      (out) => resume(checkOutput(reg, out, attempt)),
      (error) => resume(Exit.fail(toFailure(error, reg.name))),
    );
    return Effect.sync(() => abort.abort());
  });
};

/**
 * What a destructive call would do, shown before it is confirmed: the tool's own `preview` (run
 * with a context of its own), or the validated input when it has none or its preview fails.
 */
export const previewOf = async (
  reg: RegisteredTool,
  input: Record<string, unknown>,
  options: CallOptions,
  services: ContextServices,
  callId: string,
): Promise<unknown> => {
  if (!reg.tool.preview) return input;
  const call = { reg, input, options, session: options.session ?? {}, callId, trace: undefined };
  const attempt = { number: 0, signal: new AbortController().signal, onPartial: () => {} };
  const ctx = toolContext(call, services, attempt);
  try {
    return await reg.tool.preview(input, ctx);
  } catch {
    return input;
  }
};

/** Waits for the plugin's `setup`; a failed setup is `unavailable` (retryable: the next call tries again). */
const openResources = (reg: RegisteredTool): Effect.Effect<void, ToolFailure> =>
  Effect.tryPromise({
    try: () => reg.resources.open(),
    catch: (error) =>
      ToolFailure.isInstance(error)
        ? error
        : fail.unavailable(
            `The ${reg.pluginId} plugin could not start: ${error instanceof Error ? error.message : String(error)}`,
            { retryable: true, cause: error },
          ),
  });

/** Checks run output against the tool's output schema (a schema that throws is a defect). */
const checkOutput = (
  reg: RegisteredTool,
  out: unknown,
  attempts: number,
): Exit.Exit<RunOutput, ToolFailure> => {
  const info = isOutcome(out) ? out : undefined;
  let checked: ReturnType<typeof validateSync>;
  try {
    checked = validateSync(reg.tool.output, info ? info.data : out);
  } catch (defect) {
    return Exit.die(defect);
  }
  if (!checked.ok) {
    const first = checked.issues[0];
    const where = first ? `${first.path.map(String).join(".") || "output"}: ${first.message}` : "invalid";
    return Exit.fail(
      fail.internal(
        `${reg.name} returned output that does not match its schema (${where}). This is a bug in the tool.`,
      ),
    );
  }
  return Exit.succeed({
    data: checked.value,
    partial: info?.partial ?? false,
    message: info?.message,
    instruction: info?.instruction,
    source: info?.source,
    metadata: info?.content ? { ...info.metadata, content: info.content } : info?.metadata,
    attempts,
  });
};

const isPromiseLike = (u: unknown): u is PromiseLike<unknown> =>
  typeof u === "object" && u !== null && typeof (u as { then?: unknown }).then === "function";

/** Any thrown value as a ToolFailure: a ToolFailure passes through, anything else is `internal`. */
export const toFailure = (error: unknown, tool: string): ToolFailure => {
  if (ToolFailure.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return fail.internal(`${tool} failed unexpectedly: ${message}`, { cause: error, retryable: false });
};
