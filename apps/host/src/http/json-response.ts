import type { ServerResponse } from "node:http";

/** Writes a JSON body with a status. */
export const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void => {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
};

/** Writes the API's error shape: `{ error: { code, message, fix? } }`. */
export const sendError = (
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: { readonly fix?: string; readonly headers?: Readonly<Record<string, string>> } = {},
): void =>
  sendJson(
    res,
    status,
    { error: { code, message, ...(extra.fix ? { fix: extra.fix } : {}) } },
    extra.headers,
  );
