import type { Readable } from "node:stream";
import { BodyDecodeError, decodeBody } from "./decode-body.js";

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
 * Reads a response body into memory, decoding its content codings (`codings`, as
 * `contentCodings` returns them), at most `limit` decoded bytes, calling `onChunk` for each chunk
 * (to restart an idle timer). Over the limit the body is discarded and, with `overflow: "fail"`,
 * {@link BodyTooLargeError} is thrown; with `"truncate"` the first `limit` bytes are returned
 * (enough of an error page to find its message). A body that does not decode throws
 * `BodyDecodeError`; an empty body with a coding is an empty body.
 */
export const readBody = async (
  body: Readable,
  limit: number,
  overflow: "fail" | "truncate",
  onChunk: () => void = () => {},
  codings: ReadonlyArray<string> = [],
): Promise<Buffer> => {
  const decoded = decodeBody(body, codings);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded.stream) {
      onChunk();
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > limit) {
        discardBody(decoded.stream);
        if (overflow === "fail") throw new BodyTooLargeError(limit, codings);
        chunks.push(buffer.subarray(0, buffer.length - (size - limit)));
        return Buffer.concat(chunks);
      }
      chunks.push(buffer);
    }
  } catch (error) {
    if (!decoded.fromDecoder(error)) throw error;
    // A server that declares a coding on an empty body sent an empty body.
    if (decoded.rawBytes() === 0) return Buffer.alloc(0);
    throw new BodyDecodeError(codings.join(", "), error);
  }
  return Buffer.concat(chunks);
};
