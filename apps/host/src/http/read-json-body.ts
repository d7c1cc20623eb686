import type { IncomingMessage } from "node:http";

/** A body that could not be read, with the HTTP status to answer. */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** How much of an oversized body is read and discarded (so the client reads the 413) before the socket is cut. */
const DISCARD_FACTOR = 4;

const parse = (chunks: Buffer[]): unknown => {
  let text: string;
  try {
    text = UTF8.decode(Buffer.concat(chunks)).trim();
  } catch {
    throw new BodyError(400, "invalid_encoding", "The request body is not valid UTF-8.");
  }
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BodyError(
      400,
      "invalid_json",
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
};

/**
 * Reads a request body as JSON (at most `limit` bytes); an empty body is `undefined`. A body that
 * is not valid UTF-8 is refused (400 `invalid_encoding`) rather than read with replacement
 * characters; a leading byte-order mark is skipped. Past the limit the rest is read and discarded
 * (up to four times the limit, then the socket is cut), so the client gets the 413 rather than a reset.
 *
 * @example
 * const body = await readJsonBody(req, 4 * 1024 * 1024)
 */
export const readJsonBody = (req: IncomingMessage, limit: number): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > limit * DISCARD_FACTOR) req.destroy();
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(new BodyError(413, "body_too_large", `The request body is larger than ${limit} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (over) return;
      try {
        resolve(parse(chunks));
      } catch (error) {
        reject(error);
      }
    });
    req.once("error", reject);
    req.once("close", () => reject(new BodyError(400, "incomplete_body", "The request body ended early.")));
  });
