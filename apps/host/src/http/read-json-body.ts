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

/**
 * Reads a request body as JSON (at most `limit` bytes); an empty body is `undefined`.
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
  const text = Buffer.concat(chunks).toString("utf8").trim();
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
