import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { EmulatorResponse, ResponseHeaders } from "../emulator/route.js";

/** A response ready to write: status, lower-cased headers and the body bytes. */
export interface PreparedResponse {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: Buffer;
}

/** Lower-cases header names; later sources win. */
export const mergeHeaders = (
  ...sources: ReadonlyArray<ResponseHeaders | undefined>
): Record<string, string | number | string[]> => {
  const out: Record<string, string | number | string[]> = {};
  for (const source of sources) {
    if (!source) continue;
    for (const [name, value] of Object.entries(source)) {
      out[name.toLowerCase()] = typeof value === "object" ? [...value] : value;
    }
  }
  return out;
};

/** Turns a canned response into bytes and headers, choosing a content type from the body kind. */
export const prepare = (response: EmulatorResponse): PreparedResponse => {
  let body: Buffer;
  let contentType: string | undefined;
  if (response.json !== undefined) {
    body = Buffer.from(JSON.stringify(response.json));
    contentType = "application/json";
  } else if (response.text !== undefined) {
    body = Buffer.from(response.text);
    contentType = "text/plain; charset=utf-8";
  } else if (response.body !== undefined) {
    body = typeof response.body === "string" ? Buffer.from(response.body) : Buffer.from(response.body);
    contentType = "application/octet-stream";
  } else {
    body = Buffer.alloc(0);
  }
  const headers = mergeHeaders(contentType ? { "content-type": contentType } : undefined, response.headers);
  return { status: response.status ?? 200, headers, body };
};

/** Writes a prepared response in one go, with `Content-Length`. */
export const send = (res: ServerResponse, prepared: PreparedResponse): void => {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(prepared.status, { ...prepared.headers, "content-length": prepared.body.length });
  res.end(prepared.body);
};

/** Sleeps `ms`, returning false early when `signal` aborts (the timer never outlives the abort). */
export const wait = async (ms: number, signal: AbortSignal): Promise<boolean> => {
  if (signal.aborted) return false;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
};

/** Resolves when `signal` aborts. */
export const waitForAbort = (signal: AbortSignal): Promise<void> =>
  signal.aborted
    ? Promise.resolve()
    : new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

/** Writes one chunk honouring back-pressure; false when the client or the emulator went away. */
export const writeChunk = async (
  res: ServerResponse,
  chunk: Buffer,
  signal: AbortSignal,
): Promise<boolean> => {
  if (signal.aborted || res.destroyed) return false;
  if (res.write(chunk)) return true;
  try {
    await once(res, "drain", { signal });
    return true;
  } catch {
    return false;
  }
};
