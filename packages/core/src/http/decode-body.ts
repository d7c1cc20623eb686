// Bodies are decoded by undici's `decompress` interceptor (see `http-client.ts`); this file keeps
// what it does not do: the coding errors the client names, and fetch's text decoding.

/** The content codings the client asks for, as fetch does (`zstd` is decoded too when sent). */
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** Thrown when a body uses a content coding the client cannot decode (internal to the client). */
export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content-encoding ${encoding}`);
    this.name = "UnsupportedEncodingError";
  }
}

/** Thrown when a compressed body does not decode (corrupt or cut short; internal to the client). */
export class BodyDecodeError extends Error {
  constructor(
    readonly encoding: string,
    cause: unknown,
  ) {
    super(
      `the ${encoding} body could not be decoded: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = "BodyDecodeError";
  }
}

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
