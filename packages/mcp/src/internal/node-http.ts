import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** A request body read in full, or the note that it exceeded the limit or is not UTF-8. */
export type BodyRead =
  | { readonly tooLarge: false; readonly text: string }
  | { readonly tooLarge: true }
  | { readonly tooLarge: false; readonly notUtf8: true };

// Fatal, as the HTTP API's body reader: a body that is not UTF-8 is refused, never read with
// replacement characters (which would change a tool's input unseen). A leading BOM is skipped.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

const decode = (bytes: Uint8Array): BodyRead => {
  try {
    return { tooLarge: false, text: UTF8.decode(bytes) };
  } catch {
    return { tooLarge: false, notUtf8: true };
  }
};

/**
 * Reads a web `Request` body as UTF-8 text, up to `maxBytes` (a larger declared or actual body is
 * `tooLarge`, and the read stops there); a body that is not valid UTF-8 is `notUtf8`.
 */
export const readWebBody = async (request: Request, maxBytes: number): Promise<BodyRead> => {
  if (Number(request.headers.get("content-length")) > maxBytes) return { tooLarge: true };
  if (!request.body) return decode(new Uint8Array());
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.length;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  return decode(Buffer.concat(chunks, received));
};

/**
 * A node:http request as a web `Request`. Its signal aborts when the response closes before it
 * finished (the client went away), so a streaming exchange learns about a disconnect; a response
 * that completed normally aborts nothing (an abort costs a DOMException and its listeners).
 *
 * With `body: false` the `Request` carries no body: for a POST whose body the caller read itself
 * (`readNodeBody`) and hands to the SDK as `parsedBody`, so it is neither streamed twice nor
 * wrapped in a web stream.
 */
export const toWebRequest = (
  req: IncomingMessage,
  res: ServerResponse,
  options: { readonly url?: URL; readonly body?: boolean } = {},
): Request => {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const url = options.url ?? new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const method = req.method ?? "GET";
  const hasBody = options.body !== false && method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
};

/**
 * Reads a node:http request body as UTF-8 text, up to `maxBytes` (a larger declared or actual body
 * is `tooLarge`, and the rest is discarded so the connection can still carry the answer); a body that
 * is not valid UTF-8 is `notUtf8`.
 */
export const readNodeBody = (req: IncomingMessage, maxBytes: number): Promise<BodyRead> => {
  if (Number(req.headers["content-length"]) > maxBytes) {
    req.resume();
    return Promise.resolve({ tooLarge: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        cleanup();
        req.resume();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
};

/**
 * Writes a web `Response` to a node:http response, streaming the body chunk by chunk (SSE frames
 * reach the client as they are produced). When the client disconnects, the body stream is cancelled.
 *
 * The headers go out with the first chunk (one socket write) unless the body is slow to start (a
 * standalone SSE stream, a long call): then they are flushed at once so the client sees the stream open.
 */
export const writeWebResponse = async (response: Response, res: ServerResponse): Promise<void> => {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === "set-cookie") return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  res.once("close", cancel);
  try {
    let next = reader.read();
    // The first chunk of a quick answer is ready within the current turn; a stream that stays
    // quiet gets its headers now.
    const early = await Promise.race([next, new Promise<undefined>((r) => setImmediate(() => r(undefined)))]);
    if (early === undefined && !res.destroyed) res.flushHeaders();
    for (;;) {
      const { done, value } = await next;
      if (done) break;
      if (res.destroyed) break;
      res.write(value);
      next = reader.read();
    }
  } catch {
    /* the client went away or the stream failed: end below */
  } finally {
    res.off("close", cancel);
    if (!res.destroyed) res.end();
  }
};
