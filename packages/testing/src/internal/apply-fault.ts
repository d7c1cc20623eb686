import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Fault, StatusFault } from "../emulator/faults.js";
import { bombBody, encodeBody } from "./encode-body.js";
import {
  mergeHeaders,
  type PreparedResponse,
  prepare,
  send,
  wait,
  waitForAbort,
  writeChunk,
} from "./http.js";

/** What a fault needs to act on one request. */
export interface FaultContext {
  readonly res: ServerResponse;
  /** Aborts when the client disconnects or the emulator closes. */
  readonly signal: AbortSignal;
  /** Produces the response the request would get without the fault. */
  readonly normal: () => Promise<PreparedResponse>;
}

const DEFAULT_OVERSIZED_BYTES = 10 * 1024 * 1024;
const OVERSIZED_CHUNK = 64 * 1024;
const DEFAULT_OVERSIZED_HEADER_BYTES = 64 * 1024;
const DEFAULT_BOMB_BYTES = 64 * 1024 * 1024;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const DEFAULT_INVALID_JSON = '{"results": [{"id": 1, "name": "trunc';
const defaultHtml = (status: number): string =>
  `<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head>` +
  `<body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request ` +
  `(${status}).</p><hr><address>nginx</address></body></html>\n`;

/** Serves one request according to `fault`. */
export const applyFault = async (fault: Fault, ctx: FaultContext): Promise<void> => {
  const { res, signal } = ctx;
  switch (fault.kind) {
    case "delay": {
      if (!(await wait(fault.ms, signal))) return;
      send(res, await ctx.normal());
      return;
    }
    case "hang":
    case "headersNever": {
      await waitForAbort(signal);
      res.socket?.destroy();
      return;
    }
    case "slowBody": {
      const normal = await ctx.normal();
      const size = Math.max(1, fault.chunkBytes ?? 8);
      const interval = fault.intervalMs ?? 50;
      res.writeHead(normal.status, { ...normal.headers, "content-length": normal.body.length });
      res.flushHeaders();
      for (let offset = 0; offset < normal.body.length; offset += size) {
        if (offset > 0 && !(await wait(interval, signal))) return;
        if (!(await writeChunk(res, normal.body.subarray(offset, offset + size), signal))) return;
      }
      res.end();
      return;
    }
    case "reset": {
      const socket = res.socket;
      if (!socket) return;
      const when = fault.when ?? fault.phase ?? "beforeHeaders";
      if (when === "beforeHeaders") {
        socket.resetAndDestroy();
        return;
      }
      const normal = await ctx.normal();
      if (when === "afterHeaders") {
        res.writeHead(normal.status, {
          ...normal.headers,
          "content-length": Math.max(normal.body.length, 1),
        });
        res.flushHeaders();
        // Let the headers leave before the reset, so the client has them when the connection drops.
        if (await wait(20, signal)) socket.resetAndDestroy();
        return;
      }
      const half = normal.body.subarray(0, Math.floor(normal.body.length / 2));
      // Declare at least one byte more than we send so the client always sees a truncated body.
      res.writeHead(normal.status, { ...normal.headers, "content-length": Math.max(normal.body.length, 1) });
      res.flushHeaders();
      if (half.length > 0) res.write(half);
      // end() sends FIN after the buffered bytes, so the client reliably sees a truncated body.
      socket.end();
      return;
    }
    case "status": {
      send(res, statusResponse(fault));
      return;
    }
    case "invalidJson": {
      send(
        res,
        prepare({
          status: fault.status ?? 200,
          headers: { "content-type": "application/json" },
          body: fault.body ?? DEFAULT_INVALID_JSON,
        }),
      );
      return;
    }
    case "htmlError": {
      const status = fault.status ?? 200;
      send(
        res,
        prepare({
          status,
          headers: { "content-type": "text/html; charset=utf-8" },
          body: fault.body ?? defaultHtml(status),
        }),
      );
      return;
    }
    case "oversized": {
      await streamOversized(res, signal, fault.bytes ?? DEFAULT_OVERSIZED_BYTES, fault);
      return;
    }
    case "wrongContentType": {
      const normal = await ctx.normal();
      const body = fault.body === undefined ? normal.body : Buffer.from(fault.body);
      send(res, {
        status: normal.status,
        headers: { ...normal.headers, "content-type": fault.contentType ?? "text/plain" },
        body,
      });
      return;
    }
    case "encoded": {
      const normal = await ctx.normal();
      send(res, {
        status: normal.status,
        headers: { ...normal.headers, "content-encoding": fault.encoding, vary: "accept-encoding" },
        body: encodeBody(normal.body, fault.encoding),
      });
      return;
    }
    case "bom": {
      const normal = await ctx.normal();
      send(res, { ...normal, body: Buffer.concat([UTF8_BOM, normal.body]) });
      return;
    }
    case "redirect": {
      send(res, {
        status: fault.status ?? 302,
        headers: { location: fault.location, "content-type": "text/plain; charset=utf-8" },
        body: Buffer.from(`Redirecting to ${fault.location}\n`),
      });
      return;
    }
    case "stall": {
      const normal = await ctx.normal();
      const sent = Math.max(
        0,
        Math.min(fault.afterBytes ?? Math.floor(normal.body.length / 2), normal.body.length),
      );
      // Declare at least one byte more than we send, so the body is never complete.
      res.writeHead(normal.status, {
        ...normal.headers,
        "content-length": Math.max(normal.body.length, sent + 1),
      });
      res.flushHeaders();
      if (sent > 0 && !(await writeChunk(res, normal.body.subarray(0, sent), signal))) return;
      await waitForAbort(signal);
      res.socket?.destroy();
      return;
    }
    case "oversizedHeaders": {
      const normal = await ctx.normal();
      const bytes = Math.max(1, fault.bytes ?? DEFAULT_OVERSIZED_HEADER_BYTES);
      send(res, { ...normal, headers: { ...normal.headers, "x-padding": "p".repeat(bytes) } });
      return;
    }
    case "bomb": {
      send(res, {
        status: 200,
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: bombBody(fault.bytes ?? DEFAULT_BOMB_BYTES, fault.ratio),
      });
      return;
    }
    case "errorObject": {
      send(
        res,
        prepare({
          status: fault.status ?? 200,
          json: { error: { message: fault.message ?? "internal error (emulated)", code: fault.code ?? 500 } },
        }),
      );
      return;
    }
    case "emptyBody": {
      send(res, {
        status: fault.status ?? 200,
        headers: { "content-type": "application/json" },
        body: Buffer.alloc(0),
      });
      return;
    }
  }
};

const statusResponse = (fault: StatusFault): PreparedResponse => {
  const retryAfter =
    fault.retryAfter === undefined
      ? undefined
      : fault.retryAfter instanceof Date
        ? fault.retryAfter.toUTCString()
        : String(fault.retryAfter);
  const body = fault.body === undefined ? { error: STATUS_CODES[fault.status] ?? "error" } : fault.body;
  const base = typeof body === "string" ? prepare({ text: body }) : prepare({ json: body });
  return {
    status: fault.status,
    headers: mergeHeaders(
      base.headers,
      retryAfter === undefined ? undefined : { "retry-after": retryAfter },
      fault.headers,
    ),
    body: base.body,
  };
};

/** Streams `{"data":"xxxx…"}` of exactly `bytes` bytes (plain `x`s below 12 bytes). */
const streamOversized = async (
  res: ServerResponse,
  signal: AbortSignal,
  bytes: number,
  options: { readonly contentType?: string; readonly contentLength?: boolean },
): Promise<void> => {
  const head = Buffer.from('{"data":"');
  const tail = Buffer.from('"}');
  const framed = bytes >= head.length + tail.length + 1;
  const headers: Record<string, string | number> = {
    "content-type": options.contentType ?? "application/json",
  };
  if (options.contentLength) headers["content-length"] = bytes;
  res.writeHead(200, headers);
  let remaining = bytes;
  if (framed) {
    if (!(await writeChunk(res, head, signal))) return;
    remaining -= head.length + tail.length;
  }
  const filler = Buffer.alloc(OVERSIZED_CHUNK, "x");
  while (remaining > 0) {
    const n = Math.min(remaining, filler.length);
    if (!(await writeChunk(res, filler.subarray(0, n), signal))) return;
    remaining -= n;
  }
  if (framed && !(await writeChunk(res, tail, signal))) return;
  res.end();
};
