import type { ToolResult } from "../envelope.js";
import type { CallOptions } from "./call-types.js";

/** One call in a batch: a tool name, its input and call options. */
export interface BatchCall {
  readonly name: string;
  readonly input: unknown;
  readonly options?: CallOptions;
}

/**
 * Runs a batch of tool calls through `call`, at most `concurrency` at a time (default 4), and answers
 * the envelopes in the order of `calls`. `call` never rejects (it answers envelopes), so neither does
 * this. The catalog's `callMany` and any wrapper of a catalog (a host tracking calls in flight) use it.
 *
 * @example
 * const results = await callConcurrently((n, i, o) => catalog.call(n, i, o), calls, { concurrency: 8 });
 */
export const callConcurrently = (
  call: (name: string, input: unknown, options?: CallOptions) => Promise<ToolResult>,
  calls: ReadonlyArray<BatchCall>,
  options: { readonly concurrency?: number } = {},
): Promise<ReadonlyArray<ToolResult>> =>
  // Effect is imported here, at the first batch: a module that only lists tools never loads it.
  import("effect/Effect").then((Effect) =>
    Effect.runPromise(
      Effect.forEach(calls, (c) => Effect.promise(() => call(c.name, c.input, c.options)), {
        concurrency: Math.max(1, options.concurrency ?? 4),
      }),
    ),
  );
