import { bodyText as responseText } from "@quiver/core";
import type { Dispatcher } from "undici";
import { currentRequest, type RequestFrame } from "./call-tape.js";
import type { CassetteInteraction } from "./cassette.js";
import type { CassetteMode } from "./cassette-mode.js";
import { interactionKey, liveKey, requestBody } from "./request-key.js";
import { keptResponseHeaders, PRINCIPAL } from "./scrub.js";

/** How replay paces its answers: at once, or after the time the recorded exchange took. */
export type ReplayTiming = "instant" | "recorded";

type Headers = Record<string, string | string[] | undefined>;

const urlOf = (opts: Dispatcher.DispatchOptions): string => {
  const origin = typeof opts.origin === "string" ? opts.origin : (opts.origin?.origin ?? "");
  return `${origin.replace(/\/+$/, "")}${opts.path}`;
};

const bodyText = (body: Dispatcher.DispatchOptions["body"]): string | undefined =>
  typeof body === "string" ? body : Buffer.isBuffer(body) ? body.toString("utf8") : undefined;

const headersOf = (opts: Dispatcher.DispatchOptions): Record<string, string> => {
  const out: Record<string, string> = {};
  const h = opts.headers;
  if (h && typeof h === "object" && !Array.isArray(h) && !(Symbol.iterator in h)) {
    for (const [k, v] of Object.entries(h as Headers)) if (v !== undefined) out[k] = String(v);
  }
  return out;
};

/**
 * The undici interceptor of the cassette client (composed by core's client between its
 * decompression and its redirects, so it sees each hop with its body decoded). Inside a recorded
 * call it passes each request on and copies the exchange (scrubbed) into the call's tape; inside a
 * replayed call it answers from the cassette and never passes anything on; outside any call it
 * passes requests on untouched, except in `replay` mode, where the network is closed.
 *
 * Why by hand: undici's `SnapshotAgent` records one file per agent in its own format; Quiver
 * needs one file per tool call in the cassette format `@quiver/testing` reads.
 */
export const cassetteInterceptor =
  (timing: ReplayTiming, mode: CassetteMode): Dispatcher.DispatcherComposeInterceptor =>
  (dispatch) =>
  (opts, handler) => {
    const frame = currentRequest.getStore();
    const tape = frame?.tape;
    if (frame && tape?.mode === "replay") return replay(frame, opts, handler, timing);
    if (frame && tape) return dispatch(opts, recording(frame, opts, handler));
    if (mode !== "replay") return dispatch(opts, handler);
    const controller = answerController(handler, () => {});
    handler.onRequestStart?.(controller, {});
    queueMicrotask(() => controller.abort(new Error("the network is closed while replaying cassettes")));
    return true;
  };

/** A handler that forwards everything to `handler` and, at the end, puts the exchange on the tape. */
const recording = (
  frame: RequestFrame,
  opts: Dispatcher.DispatchOptions,
  handler: Dispatcher.DispatchHandler,
): Dispatcher.DispatchHandler => {
  const tape = frame.tape!;
  const { scrub } = frame;
  const slot = tape.recorded.push(undefined) - 1;
  const started = performance.now();
  const chunks: Buffer[] = [];
  let status = 0;
  let headers: Headers = {};
  return {
    onRequestStart: (c, context) => handler.onRequestStart?.(c, context),
    onRequestUpgrade: (c, s, h, socket) => handler.onRequestUpgrade?.(c, s, h, socket),
    onResponseStart: (c, statusCode, h, message) => {
      status = statusCode;
      headers = h as Headers;
      return handler.onResponseStart?.(c, statusCode, h, message);
    },
    onResponseData: (c, chunk) => {
      chunks.push(chunk);
      return handler.onResponseData?.(c, chunk);
    },
    onResponseEnd: (c, trailers) => {
      const kept = keptResponseHeaders(headers);
      // The body comes decoded (undici's `decompress` is under this interceptor); replay sends it without a coding.
      const bytes = Buffer.concat(chunks);
      const text = responseText(bytes, kept["content-type"]);
      let body: { response_json?: unknown; response_text?: string } = {};
      if (text !== "") {
        const json = /\bjson\b/i.test(kept["content-type"] ?? "") ? tryJson(text) : undefined;
        body = json === undefined ? { response_text: scrub.text(text) } : { response_json: scrub.json(json) };
      }
      tape.recorded[slot] = {
        method: opts.method.toUpperCase(),
        url: scrub.text(urlOf(opts)),
        request_headers: scrub.requestHeaders(headersOf(opts)),
        ...requestBody(bodyText(opts.body), scrub),
        status,
        response_headers: Object.fromEntries(Object.entries(kept).map(([k, v]) => [k, scrub.text(v)])),
        ...body,
        elapsed_ms: Math.round(performance.now() - started),
      };
      return handler.onResponseEnd?.(c, trailers);
    },
    onResponseError: (c, error) => handler.onResponseError?.(c, error),
  };
};

const tryJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Content types of recorded text bodies without a recorded `content-type`, by file extension. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  json: "application/json",
};

/** The recorded answer as status, headers and body bytes; `[PRINCIPAL]` becomes the caller again. */
const answerOf = (i: CassetteInteraction, principal: string | undefined) => {
  const restore = (s: string) => (principal ? s.split(PRINCIPAL).join(principal) : s);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(i.response_headers ?? {})) {
    const lower = k.toLowerCase();
    if (lower !== "content-length" && lower !== "content-encoding" && lower !== "transfer-encoding") {
      headers[lower] = restore(v);
    }
  }
  let body = "";
  // In a JSON body the caller goes back JSON-escaped, so a name with a quote keeps the body valid.
  let restoreBody = restore;
  if (i.response_text !== undefined) {
    body = i.response_text;
    const ext = new URL(i.url).pathname.split(".").pop()?.toLowerCase() ?? "";
    headers["content-type"] ??= TEXT_TYPES[ext] ?? "text/plain; charset=utf-8";
  } else if (i.response_json !== undefined) {
    body = JSON.stringify(i.response_json);
    headers["content-type"] ??= "application/json";
    if (principal) restoreBody = (s) => s.split(PRINCIPAL).join(JSON.stringify(principal).slice(1, -1));
  }
  return { status: i.status, headers, body: Buffer.from(restoreBody(body), "utf8") };
};

/** Answers a request of a replayed call from its cassette (or fails it, noting the miss on the frame). */
const replay = (
  frame: RequestFrame,
  opts: Dispatcher.DispatchOptions,
  handler: Dispatcher.DispatchHandler,
  timing: ReplayTiming,
): boolean => {
  const tape = frame.tape!;
  const method = opts.method.toUpperCase();
  const url = urlOf(opts);
  const key = liveKey(method, url, bodyText(opts.body), frame.scrub);
  const matches = (tape.cassette?.interactions ?? []).filter((i) => interactionKey(i) === key);

  let timer: NodeJS.Timeout | undefined;
  const controller = answerController(handler, () => {
    if (timer) clearTimeout(timer);
  });
  handler.onRequestStart?.(controller, {});
  if (controller.aborted) return true;

  if (matches.length === 0) {
    frame.miss = `The cassette ${tape.path} has no recorded answer for ${method} ${frame.scrub.text(url)}${bodyText(opts.body) ? " with this body" : ""}: the tool now sends a request it did not send when the cassette was recorded. Record it again.`;
    queueMicrotask(() => controller.abort(new Error(frame.miss)));
    return true;
  }
  const served = tape.served.get(key) ?? 0;
  tape.served.set(key, served + 1);
  const interaction = matches[Math.min(served, matches.length - 1)]!;
  const answer = answerOf(interaction, tape.call.principal);
  const send = () => {
    timer = undefined;
    if (controller.aborted) return;
    handler.onResponseStart?.(controller, answer.status, answer.headers, "");
    if (controller.aborted) return;
    if (answer.body.length > 0) handler.onResponseData?.(controller, answer.body);
    if (controller.aborted) return;
    handler.onResponseEnd?.(controller, {});
  };
  const delay = timing === "recorded" ? (interaction.elapsed_ms ?? 0) : 0;
  if (delay > 0) timer = setTimeout(send, delay);
  else setImmediate(send);
  return true;
};

/** The controller of an answer made here, not on the network: aborting it ends the answer with an error. */
const answerController = (
  handler: Dispatcher.DispatchHandler,
  onAbort: () => void,
): Dispatcher.DispatchController => {
  let aborted = false;
  const controller: Dispatcher.DispatchController = {
    get aborted() {
      return aborted;
    },
    get paused() {
      return false;
    },
    get reason() {
      return null;
    },
    abort: (reason) => {
      if (aborted) return;
      aborted = true;
      onAbort();
      handler.onResponseError?.(controller, reason);
    },
    pause: () => {},
    resume: () => {},
  };
  return controller;
};
