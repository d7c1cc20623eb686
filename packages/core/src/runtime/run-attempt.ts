import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import { isOutcome } from "../define-tool.js";
import { fail, ToolFailure } from "../errors.js";
import type { CallState } from "./call-state.js";
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
): Effect.Effect<Executed, ToolFailure> => {
  if (!reg.resources.isReady) {
    const opened = s.deadline ? s.deadline.race(openResources(reg)) : openResources(reg);
    return Effect.flatMap(opened, () => runAttempt(reg, s, world));
  }
  const deadline = s.deadline;
  if (deadline?.failure) return Effect.fail(deadline.failure);
  const attempt = ++s.attempts;
  const abort = new AbortController();
  const ctx = toolContext(reg, world, s.options, s.session, s.callId, abort.signal, attempt, (d) => {
    s.partialData = d;
  });
  let result: unknown;
  try {
    const run = () => reg.tool.run(s.input as never, ctx);
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
    return Effect.fail(toFailure(error, reg.name));
  }
  if (isPromiseLike(result)) {
    const promise = result;
    return Effect.callback<Executed, ToolFailure>((resume) => {
      let settled = false;
      // The call's deadline passed while the promise was pending: stop the run, answer the timeout.
      const end = () => {
        if (settled) return;
        settled = true;
        abort.abort();
        resume(Effect.fail(deadline?.failure as ToolFailure));
      };
      deadline?.hold(end);
      promise.then(
        (out) => {
          if (settled) return;
          settled = true;
          deadline?.release(end);
          let checked: Effect.Effect<Executed, ToolFailure>;
          try {
            checked = validateOutput(reg, out, attempt);
          } catch (defect) {
            checked = Effect.die(defect);
          }
          resume(checked);
        },
        (error) => {
          if (settled) return;
          settled = true;
          deadline?.release(end);
          resume(Effect.fail(toFailure(error, reg.name)));
        },
      );
      // Runs if the fiber is interrupted while the promise is pending.
      return Effect.sync(() => {
        settled = true;
        deadline?.release(end);
        abort.abort();
      });
    });
  }
  if (Effect.isEffect(result)) {
    const run = (result as Effect.Effect<unknown, unknown>).pipe(
      Effect.mapError((e) => toFailure(e, reg.name)),
      Effect.catchDefect((defect) => Effect.fail(toFailure(defect, reg.name))),
      Effect.flatMap((out) => validateOutput(reg, out, attempt)),
      Effect.onInterrupt(() => Effect.sync(() => abort.abort())),
    );
    // An Effect cannot hold the deadline: it runs in a child fiber the deadline interrupts.
    return deadline ? deadline.race(run) : run;
  }
  return validateOutput(reg, result, attempt);
};

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

/** Checks run output against the tool's output schema. */
const validateOutput = (
  reg: RegisteredTool,
  out: unknown,
  attempts: number,
): Effect.Effect<Executed, ToolFailure> => {
  const info = isOutcome(out) ? out : undefined;
  const data = info ? info.data : out;
  const checked = reg.tool.output.safeParse(data);
  if (!checked.success) {
    const first = checked.error.issues[0];
    return Effect.fail(
      fail.internal(
        `${reg.name} returned output that does not match its schema (${first ? `${first.path.join(".") || "output"}: ${first.message}` : "invalid"}). This is a bug in the tool.`,
      ),
    );
  }
  return Effect.succeed({
    data: checked.data,
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
