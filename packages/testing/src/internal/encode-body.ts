import { randomBytes } from "node:crypto";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";

/** Compresses a body with an HTTP content coding (`deflate` is the zlib format). */
export const encodeBody = (body: Buffer, encoding: "gzip" | "deflate" | "br"): Buffer => {
  switch (encoding) {
    case "gzip":
      return gzipSync(body);
    case "deflate":
      return deflateSync(body);
    case "br":
      return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  }
};

const bombs = new Map<string, Buffer>();

/**
 * A gzip body decoding to `{"data":"…"}` of exactly `bytes` bytes (at least 12). With a `ratio`
 * below gzip's ~1000, about `bytes / ratio` of the filler is incompressible letters. Cached per size.
 */
export const bombBody = (bytes: number, ratio: number | undefined): Buffer => {
  const size = Math.max(12, Math.floor(bytes));
  const key = `${size}:${ratio ?? ""}`;
  const cached = bombs.get(key);
  if (cached) return cached;
  const head = Buffer.from('{"data":"');
  const tail = Buffer.from('"}');
  const filler = size - head.length - tail.length;
  const noisy =
    ratio === undefined || ratio >= 1000 ? 0 : Math.min(filler, Math.floor(size / Math.max(1, ratio)));
  const noise = Buffer.from(randomBytes(noisy).map((b) => 0x61 + (b % 26)));
  const decoded = Buffer.concat([head, noise, Buffer.alloc(filler - noisy, "x"), tail]);
  const body = gzipSync(decoded, { level: 9 });
  bombs.set(key, body);
  return body;
};
