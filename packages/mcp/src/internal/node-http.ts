import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * A node:http request as a web `Request`. Its signal aborts when the response closes (the client
 * went away, or the response finished), so a streaming exchange learns about a disconnect.
 */
export const toWebRequest = (req: IncomingMessage, res: ServerResponse): Request => {
  const controller = new AbortController();
  res.once("close", () => controller.abort());
  const host = req.headers.host ?? "localhost";
  const url = new URL(req.url ?? "/", `http://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
};

/**
 * Writes a web `Response` to a node:http response, streaming the body chunk by chunk (SSE frames
 * reach the client as they are produced). When the client disconnects, the body stream is cancelled.
 */
export const writeWebResponse = async (response: Response, res: ServerResponse): Promise<void> => {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === "set-cookie") return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      res.write(value);
    }
  } catch {
    /* the client went away or the stream failed: end below */
  } finally {
    res.off("close", cancel);
    if (!res.destroyed) res.end();
  }
};
