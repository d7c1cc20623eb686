import { pipeline, type Readable, Transform } from "node:stream";
import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  gunzipSync,
  inflateSync,
} from "node:zlib";

// Why node:zlib and not undici's `interceptors.decompress` (undici 8 has one): that interceptor is
// experimental and prints an ExperimentalWarning on stderr the first time it is made, which every CLI
// run and stdio server reaching an upstream would show; and its size limit is per dispatcher, while
// the client's body limit is per request. Decoding here, on the body stream, lets the one limit count
// decoded bytes (a decompression bomb stops at the limit) with back-pressure kept.

/** The content codings the client asks for and decodes, as fetch does (`zstd` aside). */
export const ACCEPT_ENCODING = "gzip, deflate, br";

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Most codings stacked on one body (curl and urllib3 use the same bound against resource exhaustion). */
const MAX_CODINGS = 5;

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
 * The codings of a `Content-Encoding` header, in the order they were applied (`identity` dropped).
 * Throws {@link UnsupportedEncodingError} for a coding the client cannot decode or too many codings.
 */
export const contentCodings = (header: string | undefined): string[] => {
  const codings = (header ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  if (codings.length > MAX_CODINGS) throw new UnsupportedEncodingError(codings.join(", "));
  for (const coding of codings)
    if (!Object.hasOwn(DECODERS, coding)) throw new UnsupportedEncodingError(coding);
  return codings;
};

/** A decoded view of `body`, and what is needed to tell a decoding failure from a network one. */
export interface DecodedBody {
  readonly stream: Readable;
  /** Bytes received before decoding. */
  readonly rawBytes: () => number;
  /** Whether `error` came from a decoder (corrupt or truncated compressed data). */
  readonly fromDecoder: (error: unknown) => boolean;
}

/**
 * Pipes `body` through a decoder per coding (last applied, first undone). Destroying the returned
 * stream destroys `body` (its socket is not reused); an error of `body` comes out of the stream.
 */
export const decodeBody = (body: Readable, codings: ReadonlyArray<string>): DecodedBody => {
  if (codings.length === 0) return { stream: body, rawBytes: () => Number.NaN, fromDecoder: () => false };
  let raw = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      raw += chunk.length;
      callback(null, chunk);
    },
  });
  const decoders = [...codings].reverse().map((coding) => DECODERS[coding]!());
  // pipeline hands an error of `body` (a reset socket) to every decoder too: only the others are theirs.
  const failures = new Set<unknown>();
  const upstream = new Set<unknown>();
  body.on("error", (error) => upstream.add(error));
  for (const decoder of decoders) decoder.on("error", (error) => failures.add(error));
  const streams: [Readable, ...Transform[]] = [body, counter, ...decoders];
  pipeline(streams, () => {});
  return {
    stream: decoders.at(-1)!,
    rawBytes: () => raw,
    fromDecoder: (error) => failures.has(error) && !upstream.has(error),
  };
};

const SYNC_DECODERS: Readonly<Record<string, (b: Buffer, o: { maxOutputLength: number }) => Buffer>> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Decodes a whole body held in memory (for recording cassettes), at most `maxBytes` out; returns
 * `undefined` when a coding is unknown or the data does not decode.
 */
export const decodeBuffer = (
  body: Buffer,
  header: string | undefined,
  maxBytes: number,
): Buffer | undefined => {
  try {
    let out = body;
    for (const coding of contentCodings(header).reverse()) {
      if (out.length === 0) break;
      out = SYNC_DECODERS[coding]!(out, { maxOutputLength: maxBytes });
    }
    return out;
  } catch {
    return undefined;
  }
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
