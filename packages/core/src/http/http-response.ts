import type { z } from "zod";
import { bodyText } from "./decode-body.js";
import { parseJsonBody } from "./json-body.js";
import type { Redactor } from "./redact.js";
import type { HttpHeaders, HttpResponse } from "./types.js";

/** A header's value, its repeats joined with ", ". */
export const headerValue = (headers: HttpHeaders, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
};

/** A request's answer as the client read it: the last response after redirects, its body decoded. */
export interface Exchange {
  readonly method: string;
  readonly service: string;
  readonly status: number;
  readonly headers: HttpHeaders;
  readonly url: URL;
  readonly body: Buffer;
}

/** The `HttpResponse` of an exchange: its text, and `json()` parsed (and checked) on demand, redacted. */
export const toResponse = (exchange: Exchange, redact: Redactor): HttpResponse => {
  const { method, service } = exchange;
  const text = bodyText(exchange.body, headerValue(exchange.headers, "content-type"));
  const url = redact(exchange.url.href);
  return {
    status: exchange.status,
    headers: exchange.headers,
    url,
    body: text,
    header: (name) => headerValue(exchange.headers, name),
    json: <T>(schema?: z.ZodType<T>) =>
      parseJsonBody<T>({
        body: text,
        contentType: headerValue(exchange.headers, "content-type"),
        status: exchange.status,
        service,
        where: `${method} ${url}`,
        redact,
        schema,
      }),
  };
};
