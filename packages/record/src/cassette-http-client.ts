import { existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  collectSecrets,
  createHttpClient,
  fail,
  type HttpClient,
  type HttpClientOptions,
  type HttpRequestOptions,
  type ToolCallInfo,
} from "@quiver/core";
import { type CallTape, currentRequest, currentTape, type RequestFrame } from "./call-tape.js";
import { canonicalJson } from "./canonical-json.js";
import { cassettePath, readCassetteFile, writeCassetteFile } from "./cassette-file.js";
import { cassetteInterceptor, type ReplayTiming } from "./cassette-interceptor.js";
import type { CassetteMode } from "./cassette-mode.js";
import { makeScrubber } from "./scrub.js";

/** Options of {@link createCassetteHttpClient}: the HTTP client's own, plus where and how. */
export interface CassetteHttpClientOptions extends HttpClientOptions {
  /** The folder of the cassettes (one sub-folder per tool). */
  readonly dir: string;
  readonly mode: CassetteMode;
  /** Replay at once (default) or after the time each recorded exchange took. */
  readonly timing?: ReplayTiming | undefined;
  /** Told when a cassette cannot be written (the call still answers). Default: a process warning. */
  readonly onError?: ((message: string) => void) | undefined;
}

/** Recent calls kept (their tapes span retries); older ones are forgotten. */
const MAX_TAPES = 128;

/**
 * An {@link HttpClient} that records the upstream exchanges of each tool call into a cassette file
 * (`<dir>/<tool>/<hash of the canonical input>.json`), or replays them from it with no network.
 * Pass it to a catalog as `http`; every plugin that reaches its upstream through the catalog's client
 * (`ctx.http`, or the `http` of its `setup`) is recorded. The runtime tells the client which call a
 * request belongs to through {@link HttpClient.withToolCall}.
 *
 * Cassettes hold no secret and no principal: the plugin's secrets, `Redacted` request values,
 * credential headers and credential-looking query parameters become `[REDACTED]`, the caller
 * `[PRINCIPAL]`. They are plain JSON with sorted keys and no timestamps, so a re-recording diffs only
 * where an upstream answered differently (and in `elapsed_ms`, which is never matched).
 *
 * In replay, a call without a cassette (or a request its cassette does not hold) fails with an
 * `unavailable` error naming the file; requests outside a tool call (setup, health checks) are refused.
 *
 * @example
 * const catalog = createCatalog({ http: createCassetteHttpClient({ dir: "cassettes", mode: "replay" }) })
 */
export const createCassetteHttpClient = (options: CassetteHttpClientOptions): HttpClient => {
  const {
    dir: given,
    mode,
    timing = "instant",
    onError = (message: string) => process.emitWarning(message, "QuiverCassetteWarning"),
    ...clientOptions
  } = options;
  const dir = resolve(given);
  // The cassette interceptor sits in the client's own chain (core's `interceptors` extension point):
  // it sees every hop, redirects included, with its body decoded, and answers replayed ones itself.
  const inner = createHttpClient({
    ...clientOptions,
    interceptors: [...(clientOptions.interceptors ?? []), cassetteInterceptor(timing, mode)],
  });
  const tapes = new Map<string, CallTape>();

  const openTape = (call: ToolCallInfo): CallTape => {
    const scrub = makeScrubber(call.secrets, call.principal);
    const input = scrub.json(call.input);
    const path = cassettePath(dir, call.tool, input);
    const replaying = mode === "replay" || (mode === "replay-or-record" && existsSync(path));
    let cassette: CallTape["cassette"];
    let mismatch: string | undefined;
    if (replaying) {
      try {
        cassette = readCassetteFile(path);
      } catch (error) {
        mismatch = `The cassette ${path} cannot be read: ${(error as Error).message}`;
      }
      if (
        cassette &&
        (cassette.tool !== call.tool || canonicalJson(cassette.input) !== canonicalJson(input))
      ) {
        mismatch = `The cassette ${path} was recorded for another call (tool or input differ); record it again.`;
        cassette = undefined;
      }
    }
    return {
      call,
      path,
      input,
      mode: replaying ? "replay" : "record",
      cassette,
      mismatch,
      recorded: [],
      served: new Map(),
    };
  };

  const write = (tape: CallTape) => {
    const interactions = tape.recorded.filter((i) => i !== undefined);
    if (interactions.length === 0) return;
    try {
      writeCassetteFile(tape.path, {
        tool: tape.call.tool,
        plugin: tape.call.plugin,
        input: tape.input,
        interactions,
      });
    } catch (error) {
      // A cassette that cannot be written must not fail the call; say so, and the next attempt tries again.
      onError(`Could not write the cassette ${tape.path}: ${(error as Error).message}`);
    }
  };

  const withToolCall = <T>(call: ToolCallInfo, run: () => T): T => {
    let tape = tapes.get(call.callId);
    if (!tape) {
      tape = openTape(call);
      tapes.set(call.callId, tape);
      if (tapes.size > MAX_TAPES) tapes.delete(tapes.keys().next().value!);
    }
    const result = currentTape.run(tape, run);
    if (tape.mode === "record") {
      const t = tape;
      if (result && typeof (result as { then?: unknown }).then === "function") {
        // Registered before the runtime's own `then`, so the file is written before the envelope is built.
        (result as unknown as PromiseLike<unknown>).then(
          () => write(t),
          () => write(t),
        );
      } else write(t);
    }
    return result;
  };

  /** Runs one request with its frame set; a replay miss becomes an `unavailable` naming the cassette. */
  const guarded = async <R>(opts: HttpRequestOptions, send: () => Promise<R>): Promise<R> => {
    const tape = currentTape.getStore();
    if (mode === "replay" && !tape) {
      throw fail.unavailable(
        `Replaying cassettes from ${dir}: requests outside a tool call (plugin setup, health checks) are not served.`,
        { retryable: false },
      );
    }
    if (tape?.mode === "replay" && !tape.cassette) {
      throw fail.unavailable(
        tape.mismatch ??
          `No cassette for this call of ${tape.call.tool}: ${tape.path} does not exist (replaying from ${dir}).`,
        {
          retryable: false,
          suggestion:
            "Record it: run the same call once with --record or --replay-or-record, then commit the file.",
        },
      );
    }
    const secrets = [
      ...(tape?.call.secrets ?? []),
      ...(clientOptions.secrets ?? []),
      ...collectSecrets(opts.secrets ?? [], opts),
    ];
    const frame: RequestFrame = { tape, scrub: makeScrubber(secrets, tape?.call.principal) };
    try {
      return await currentRequest.run(frame, send);
    } catch (error) {
      if (frame.miss !== undefined) {
        throw fail.unavailable(frame.miss, {
          retryable: false,
          suggestion: "Record the call again with --record or --replay-or-record.",
        });
      }
      throw error;
    }
  };

  return {
    request: (opts) => guarded(opts, () => inner.request(opts)),
    json: (opts) => guarded(opts, () => inner.json(opts)),
    withToolCall,
    close: () => inner.close(),
  };
};
