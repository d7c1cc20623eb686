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

const MIB = 1024 * 1024;
let filler: Buffer | undefined;

/**
 * A gzip body decoding to `{"data":"…"}` of exactly `bytes` bytes (at least 12): gzip members
 * concatenated (gunzip reads them as one body), so a 64 MiB bomb is made in milliseconds. With a
 * `ratio` below gzip's ~1000, about `bytes / ratio` of the filler is incompressible letters.
 */
export const bombBody = (bytes: number, ratio: number | undefined): Buffer => {
  const size = Math.max(12, Math.floor(bytes));
  const head = Buffer.from('{"data":"');
  const tail = Buffer.from('"}');
  let rest = size - head.length - tail.length;
  const noisy =
    ratio === undefined || ratio >= 1000 ? 0 : Math.min(rest, Math.floor(size / Math.max(1, ratio)));
  const noise = Buffer.from(randomBytes(noisy).map((b) => 0x61 + (b % 26)));
  rest -= noisy;
  const members: Buffer[] = [gzipSync(Buffer.concat([head, noise]))];
  filler ??= gzipSync(Buffer.alloc(MIB, "x"), { level: 9 });
  for (; rest >= MIB; rest -= MIB) members.push(filler);
  members.push(gzipSync(Buffer.concat([Buffer.alloc(rest, "x"), tail]), { level: 9 }));
  return Buffer.concat(members);
};
