import { AsyncLocalStorage } from "node:async_hooks";
import type { ToolCallInfo } from "@quiver/core";
import type { Cassette, CassetteInteraction } from "./cassette.js";
import type { Scrubber } from "./scrub.js";

/** What a cassette client keeps about one tool call, across its attempts. */
export interface CallTape {
  readonly call: ToolCallInfo;
  /** The cassette file of the call. */
  readonly path: string;
  /** The input as written to the cassette (secrets and principal scrubbed). */
  readonly input: unknown;
  /** Whether this call's requests are answered from the cassette or sent and recorded. */
  readonly mode: "record" | "replay";
  /** Replay: the cassette read at the call's start (`undefined`: there is none); why it does not fit, if so. */
  readonly cassette: Cassette | undefined;
  readonly mismatch: string | undefined;
  /** Record: the exchanges in the order they were sent (a slot stays empty until its response ends). */
  readonly recorded: Array<CassetteInteraction | undefined>;
  /** Replay: how many times each request key was answered (identical requests get the recorded answers in order). */
  readonly served: Map<string, number>;
}

/** One request of a cassette client: its call's tape, its scrubber, and a replay miss if it had one. */
export interface RequestFrame {
  readonly tape: CallTape | undefined;
  readonly scrub: Scrubber;
  /** Set by the replay interceptor when the cassette has no answer for the request. */
  miss?: string;
}

/** The tool call an attempt runs for (set by `withToolCall` around the tool's `run`). */
export const currentTape = new AsyncLocalStorage<CallTape>();

/** The request being sent (set by the cassette client around each request; read by its interceptor). */
export const currentRequest = new AsyncLocalStorage<RequestFrame>();
