import type { Readable } from "node:stream";

/** Thrown by {@link readBody} when a body is larger than the limit (internal to the client). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
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
 * Reads a response body into memory, at most `limit` bytes, calling `onChunk` for each chunk (to
 * restart an idle timer). Over the limit the body is discarded and, with `overflow: "fail"`,
 * {@link BodyTooLargeError} is thrown; with `"truncate"` the first `limit` bytes are returned
 * (enough of an error page to find its message).
 */
export const readBody = async (
  body: Readable,
  limit: number,
  overflow: "fail" | "truncate",
  onChunk: () => void = () => {},
): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    onChunk();
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > limit) {
      discardBody(body);
      if (overflow === "fail") throw new BodyTooLargeError(limit);
      chunks.push(buffer.subarray(0, buffer.length - (size - limit)));
      return Buffer.concat(chunks);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
};
