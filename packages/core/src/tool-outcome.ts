import type * as Effect from "effect/Effect";
import type { ContentPart } from "./envelope.js";
import type { ToolFailure } from "./errors.js";

const outcomeMarker = Symbol.for("@quiver/core/ToolOutcome");

/** A run result with more to say than the data: partial status, message, instruction, source. */
export interface ToolOutcome<O> {
  readonly [outcomeMarker]: true;
  readonly data: O;
  readonly partial?: boolean;
  readonly message?: string;
  readonly instruction?: string;
  readonly source?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Media besides the data (images, audio, embedded resources); lands in the envelope's `metadata.content`. */
  readonly content?: ReadonlyArray<ContentPart>;
}

/**
 * Wraps run output with a message, instruction, source or extra metadata.
 *
 * @example
 * const answer = outcome({ results: [] }, { message: "Found 0 drugs", source: "openFDA drugsfda" })
 */
export const outcome = <O>(
  data: O,
  info: Omit<ToolOutcome<O>, typeof outcomeMarker | "data">,
): ToolOutcome<O> => ({ [outcomeMarker]: true, data, ...info });

/** Marks run output as partial: usable, but not all that was asked for. */
export const partial = <O>(
  data: O,
  message: string,
  info: Omit<ToolOutcome<O>, typeof outcomeMarker | "data" | "partial" | "message"> = {},
): ToolOutcome<O> => outcome(data, { ...info, partial: true, message });

/** True for a value built by `outcome` or `partial`. */
export const isOutcome = (u: unknown): u is ToolOutcome<unknown> =>
  typeof u === "object" && u !== null && (u as Record<symbol, unknown>)[outcomeMarker] === true;

/** What `run` may return: the output (plain, in a Promise, or as an Effect), optionally as an outcome. */
export type RunResult<O> =
  | O
  | ToolOutcome<O>
  | Promise<O | ToolOutcome<O>>
  | Effect.Effect<O | ToolOutcome<O>, ToolFailure, never>;
