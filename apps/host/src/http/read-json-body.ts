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

/**
 * Reads a request body as JSON (at most `limit` bytes); an empty body is `undefined`. A body that
 * is not valid UTF-8 is refused (400 `invalid_encoding`) rather than read with replacement
 * characters; a leading byte-order mark is skipped.
 *
 * @example
 * const body = await readJsonBody(req, 4 * 1024 * 1024)
 */
export const readJsonBody = async (req: IncomingMessage, limit: number): Promise<unknown> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new BodyError(413, "body_too_large", `The request body is larger than ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
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
