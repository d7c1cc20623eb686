// What the client's interceptors (dispatcher.ts) and its body reader (read-response.ts) throw,
// internal to the client: `requestFailure` turns each into an `upstream` failure.

/** A redirect the client will not follow. */
export class RedirectRefused extends Error {
  constructor(
    /** Why, as the end of "… redirected GET <url> <why>; not followed". */
    readonly why: string,
    /** Whether the redirect went to another origin. */
    readonly crossOrigin: boolean,
  ) {
    super(`redirect ${why}; not followed`);
    this.name = "RedirectRefused";
  }
}

/** A body larger than the limit, counted on its decoded bytes. */
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

/** A body in a content coding the client cannot decode. */
export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content-encoding ${encoding}`);
    this.name = "UnsupportedEncodingError";
  }
}

/** A compressed body that does not decode (corrupt or cut short). */
export class BodyDecodeError extends Error {
  constructor(
    readonly encoding: string,
    cause: unknown,
  ) {
    super(`the ${encoding} body could not be decoded`, { cause });
    this.name = "BodyDecodeError";
  }
}
