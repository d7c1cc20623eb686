import type { Readable } from "node:stream";

/** Thrown by {@link readBody} when a body is larger than the limit (internal to the client). */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    /** The content codings of the body: the limit was reached on its decoded bytes. */
    readonly codings: ReadonlyArray<string> = [],
  ) {
    super(`response larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** Destroys a body without reading it (its socket is closed, not reused) and without an unhandled error. */
export const discardBody = (body: Readable): void => {
  body.on("error", () => {});
  body.destroy();
};

/**
 * Reads a (decoded) response body into memory, at most `limit` bytes, calling `onChunk` for each
 * chunk (to restart an idle timer). Over the limit the body is discarded and, with
 * `overflow: "fail"`, `onOverflow()` is thrown; with `"truncate"` the first `limit` bytes are
 * returned (enough of an error page to find its message). Why by hand: undici's `body.bytes()`
 * has no limit, and its `dump` interceptor counts bytes on the wire, not decoded ones.
 */
export const readBody = async (
  body: Readable,
  limit: number,
  overflow: "fail" | "truncate",
  onChunk: () => void,
  onOverflow: () => Error,
): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    onChunk();
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > limit) {
      discardBody(body);
      if (overflow === "fail") throw onOverflow();
      chunks.push(buffer.subarray(0, buffer.length - (size - limit)));
      return Buffer.concat(chunks);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
};
