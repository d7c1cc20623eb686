import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { isOutcome } from "../define-tool.js";
import { fail, ToolFailure } from "../errors.js";
import { type Validated, validateSync } from "../schema/standard-schema.js";
import type { CallState } from "./call-state.js";
import type { AttemptSpan } from "./call-trace.js";
import type { Executed } from "./call-types.js";
import type { RegisteredTool } from "./registered-tool.js";
import { type ToolWorld, toolContext } from "./tool-context.js";

/**
 * One attempt: opens the plugin's resources if needed, calls `run` and lifts its plain value, Promise
 * or Effect, then checks the output against the tool's schema. An interrupted attempt (timeout,
 * cancellation, shutdown) aborts `ctx.signal`.
 */
export const runAttempt = (
  reg: RegisteredTool,
  s: CallState,
  world: ToolWorld,
  /** Traced: the attempt's span, which the tool's HTTP requests and its own Effect spans are under. */
  traced?: AttemptSpan,
): Effect.Effect<Executed, ToolFailure> => {
  if (!reg.resources.isReady) {
    return Effect.flatMap(openResources(reg), () => runAttempt(reg, s, world, traced));
  }
  const attempt = ++s.attempts;
  const abort = new AbortController();
  const ctx = toolContext(
    reg,
    world,
    s.options,
    s.session,
    s.callId,
    abort.signal,
    attempt,
    (d) => {
      s.partialData = d;
    },
    s.trace,
  );
  let result: unknown;
  try {
    const call = () => reg.tool.run(s.input as never, ctx);
    const run = traced ? () => traced.enter(call) : call;
    // A recording or replaying HttpClient learns which call the run's requests belong to.
    result = world.http.withToolCall
      ? world.http.withToolCall(
          {
            tool: reg.name,
            plugin: reg.pluginId,
            callId: s.callId,
            input: s.input,
            principal: s.session.principal,
            secrets: reg.secrets,
          },
          run,
        )
      : run();
  } catch (error) {
    return Exit.fail(toFailure(error, reg.name));
  }
  if (isPromiseLike(result)) return awaitRun(reg, result, abort, attempt);
  if (Effect.isEffect(result)) {
    const effect = result as Effect.Effect<unknown, unknown>;
    return (traced ? Effect.withParentSpan(effect, traced.span) : effect).pipe(
      Effect.mapError((e) => toFailure(e, reg.name)),
      Effect.catchDefect((defect) => Effect.fail(toFailure(defect, reg.name))),
      Effect.flatMap((out) => checkOutput(reg, out, attempt)),
      Effect.onInterrupt(() => Effect.sync(() => abort.abort())),
    );
  }
  return checkOutput(reg, result, attempt);
};

/**
 * Waits for a run's promise: its checked output, or its rejection as a failure. Interrupted while
 * the promise is pending (timeout, cancellation, shutdown), it aborts the run.
 */
const awaitRun = (
  reg: RegisteredTool,
  promise: PromiseLike<unknown>,
  abort: AbortController,
  attempt: number,
): Effect.Effect<Executed, ToolFailure> =>
  Effect.callback<Executed, ToolFailure>((resume) => {
    let settled = false;
    promise.then(
      (out) => {
        if (settled) return;
        settled = true;
        resume(checkOutput(reg, out, attempt));
      },
      (error) => {
        if (settled) return;
        settled = true;
        resume(Exit.fail(toFailure(error, reg.name)));
      },
    );
    return Effect.sync(() => {
      settled = true;
      abort.abort();
    });
  });

/** Waits for the plugin's `setup`; a failed setup is `unavailable` (retryable: the next call tries again). */
const openResources = (reg: RegisteredTool): Effect.Effect<void, ToolFailure> =>
  Effect.callback<void, ToolFailure>((resume) => {
    reg.resources.open().then(
      () => resume(Effect.void),
      (error: unknown) =>
        resume(
          Effect.fail(
            ToolFailure.isInstance(error)
              ? error
              : fail.unavailable(
                  `The ${reg.pluginId} plugin could not start: ${error instanceof Error ? error.message : String(error)}`,
                  { retryable: true, cause: error },
                ),
          ),
        ),
    );
  });

/** Checks run output against the tool's output schema (a schema that throws is a defect). */
const checkOutput = (
  reg: RegisteredTool,
  out: unknown,
  attempts: number,
): Exit.Exit<Executed, ToolFailure> => {
  const info = isOutcome(out) ? out : undefined;
  const data = info ? info.data : out;
  let checked: Validated<unknown>;
  try {
    checked = validateSync(reg.tool.output, data);
  } catch (defect) {
    return Exit.die(defect);
  }
  if (!checked.ok) {
    const first = checked.issues[0];
    return Exit.fail(
      fail.internal(
        `${reg.name} returned output that does not match its schema (${first ? `${first.path.map(String).join(".") || "output"}: ${first.message}` : "invalid"}). This is a bug in the tool.`,
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
const toFailure = (error: unknown, tool: string): ToolFailure => {
  if (ToolFailure.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return fail.internal(`${tool} failed unexpectedly: ${message}`, { cause: error, retryable: false });
};

/** The failure an unsuccessful run ended with: its error, its defect, or a cancellation. */
export const failureFromCause = (cause: Cause.Cause<ToolFailure>, tool: string): ToolFailure => {
  const failure = Cause.findErrorOption(cause);
  if (failure._tag === "Some") return failure.value;
  const defect = Cause.findDefect(cause);
  if (defect._tag === "Success") return toFailure(defect.success, tool);
  return fail.unavailable(`${tool} was cancelled before it finished.`, { retryable: true });
};
