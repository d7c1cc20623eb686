import type { Readable } from "node:stream";
import type { z } from "zod";
import { fail, type ToolFailure } from "../errors.js";
import { isAnswer } from "./dispatcher.js";
import { bodyDecodeFailed, bodyTooLarge } from "./refusals.js";
import { failureForStatus } from "./status-to-kind.js";
import { errorCode } from "./transport-error.js";
import type { HopTrace, HttpHeaders, HttpResponse } from "./types.js";

/** How much of an error response is read to find the upstream's message. */
const ERROR_BODY_BYTES = 64 * 1024;

/** Codes of the errors node:zlib raises for data that does not decode. */
const DECODER_CODES = /^(?:Z_|ERR_BROTLI|ERR_ZSTD)/;

/**
 * Waits one event-loop turn after a body has been read, so undici marks the socket free before the
 * caller's next request: without it a sequential caller finds the socket still busy and the pool
 * opens (and handshakes) a second connection.
 */
const letPoolSettle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A header's value, its repeats joined with ", ". */
const headerValue = (headers: HttpHeaders, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
};

/** Destroys a body without reading it (its socket is closed, not reused) and without an unhandled error. */
const discard = (body: Readable): void => {
  body.on("error", () => {});
  body.destroy();
};

/**
 * The text of a body, decoded with the charset of its `Content-Type` (UTF-8 when none is given or
 * the label is unknown), a leading byte-order mark dropped, as fetch's `text()` does.
 *
 * @example
 * bodyText(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), "application/json") // "{}"
 */
export const bodyText = (body: Buffer, contentType: string | undefined): string => {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // An unknown charset label: read it as UTF-8, as most such bodies are.
    return new TextDecoder("utf-8").decode(body);
  }
};

/** One response, and what reading it needs to know of its request. */
export interface ResponseToRead {
  readonly status: number;
  readonly headers: HttpHeaders;
  /** The body as undici's `decompress` interceptor gives it: decoded. */
  readonly body: Readable;
  /** The request's hop, last status, the codings its body came in, its service and redactor. */
  readonly trace: HopTrace;
  readonly maxBodyBytes: number;
  /** Whether the request carried a credential (asked only for a refusal's message). */
  readonly sentCredentials: () => boolean;
  readonly apiKeyVar: string | undefined;
}

/**
 * Reads the decoded body into memory, at most `limit` bytes: over it the body is discarded and,
 * with `"fail"`, its `bodyTooLarge` failure thrown; with `"truncate"` its first `limit` bytes are kept
 * (enough of an error page to find its message). A body that does not decode throws
 * `bodyDecodeFailed`; an empty body that declares a coding is an empty body (servers do send those).
 * Why by hand: undici's `body.bytes()` has no limit, its `dump` interceptor counts bytes on the
 * wire, and `decompress`'s `maxSize` is one per dispatcher, not per request.
 */
const readDecoded = async (r: ResponseToRead, limit: number, overflow: "fail" | "truncate") => {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of r.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        discard(r.body);
        if (overflow === "fail") throw bodyTooLarge(r.trace, limit, r.trace.codings);
        chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
        break;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    const { codings } = r.trace;
    if (codings.length === 0 || !DECODER_CODES.test(errorCode(error) ?? "")) throw error;
    if (r.trace.rawBytes === 0) return Buffer.alloc(0);
    throw bodyDecodeFailed(r.trace, codings.join(", "));
  }
  return Buffer.concat(chunks);
};

/**
 * Reads a response into the client's `HttpResponse`: its body decoded and within `maxBodyBytes`
 * (counted once decompressed: a decompression bomb stops at the limit), its text, and `json()`
 * parsed (and checked) on demand. A status that is not an answer throws its `ToolFailure`
 * (`failureForStatus`), with the upstream's message read from the first 64 KiB of its body.
 */
export const readResponse = async (r: ResponseToRead): Promise<HttpResponse> => {
  const { trace, headers, status } = r;
  const { service, redact } = trace;
  const contentType = headerValue(headers, "content-type");
  if (!isAnswer(trace, status)) {
    const errorBody = await readDecoded(r, ERROR_BODY_BYTES, "truncate").catch(() => Buffer.alloc(0));
    await letPoolSettle();
    throw failureForStatus({
      method: trace.method,
      service,
      redact,
      status,
      headers,
      body: bodyText(errorBody, contentType),
      url: redact(trace.url.href),
      sentCredentials: r.sentCredentials(),
      apiKeyVar: r.apiKeyVar,
    });
  }
  const declared = Number(headerValue(headers, "content-length"));
  if (trace.method !== "HEAD" && Number.isFinite(declared) && declared > r.maxBodyBytes) {
    discard(r.body);
    throw bodyTooLarge(trace, r.maxBodyBytes);
  }
  const text = bodyText(await readDecoded(r, r.maxBodyBytes, "fail"), contentType);
  await letPoolSettle();
  // The URL redacted when it is read (by a plugin, or for a failure's message), not on every answer.
  const url = () => redact(trace.url.href);
  const refuse: RefuseJson = (what, retryable, suggestion, tail = "") =>
    fail.upstream(redact(`${service} returned ${what} for ${trace.method} ${url()}${tail}`), {
      status,
      retryable,
      suggestion,
    });
  return {
    status,
    headers,
    get url() {
      return url();
    },
    body: text,
    header: (name) => headerValue(headers, name),
    json: <T>(schema?: z.ZodType<T>): T => {
      const type = contentType?.toLowerCase() ?? "";
      if (!/[/+]json\b/.test(type) && /html|xml/.test(type)) throw notJsonFailure(text, type, status, refuse);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw notJsonFailure(text, type, status, refuse, error);
      }
      if (schema === undefined) return parsed as T;
      const result = schema.safeParse(parsed);
      if (result.success) return result.data;
      const { issues } = result.error;
      const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
        const path = issue.path.map(String).join(".");
        return path === "" ? issue.message : `${path}: ${issue.message}`;
      });
      const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : "";
      throw refuse(
        "data in an unexpected shape",
        false,
        "The upstream API may have changed; report this to the plugin's maintainers.",
        `: ${shown.join("; ")}${more}`,
      );
    },
  };
};

/** The `upstream` failure of a body `json()` cannot give: `${service} returned ${what} for ${where}${tail}`. */
type RefuseJson = (what: string, retryable: boolean, suggestion: string, tail?: string) => ToolFailure;

const HTML = /^\s*(?:<!doctype html|<html|<head|<body)/i;
const MAX_ISSUES = 3;

const htmlTitle = (body: string): string | undefined => {
  const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, " ").trim();
  return title === "" ? undefined : title;
};

/**
 * The `upstream` failure of a body that is not JSON: an HTML page (a maintenance page, a bot
 * challenge) or an XML body is not retryable; an empty body or invalid JSON (`parseError`) is.
 */
const notJsonFailure = (
  body: string,
  contentType: string,
  status: number,
  refuse: RefuseJson,
  parseError?: unknown,
) => {
  const isJsonType = /[/+]json\b/.test(contentType);
  if (!isJsonType && (/html/.test(contentType) || HTML.test(body))) {
    const title = htmlTitle(body);
    return refuse(
      `an HTML page instead of JSON (HTTP ${status}${title === undefined ? "" : `, "${title}"`})`,
      false,
      "The service may be down for maintenance or blocking automated clients; try another source.",
    );
  }
  if (!isJsonType && /xml/.test(contentType)) {
    const suggestion = "The service answered in a format the tool does not read; try another source.";
    return refuse(`XML instead of JSON (HTTP ${status})`, false, suggestion);
  }
  if (body.trim() === "") {
    return refuse(
      `an empty body instead of JSON (HTTP ${status})`,
      true,
      "The service answered with nothing; try again in a moment. An empty answer is not a result.",
    );
  }
  const reason = parseError instanceof Error ? `: ${parseError.message}` : "";
  return refuse(
    `invalid JSON (HTTP ${status})`,
    true,
    "The response was broken or cut short; try again in a moment.",
    reason,
  );
};
