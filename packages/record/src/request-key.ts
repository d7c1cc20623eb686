import { canonicalJson } from "./canonical-json.js";
import type { CassetteInteraction } from "./cassette.js";
import type { Scrubber } from "./scrub.js";

/** A URL with its query parameters sorted, so parameter order never decides a match. */
const sortedUrl = (url: string): string => {
  const parsed = new URL(url);
  parsed.searchParams.sort();
  return parsed.href;
};

/** The key replay matches on: method, URL (query sorted) and body (JSON compared canonically). */
const keyOf = (method: string, url: string, json: unknown, text: string | undefined): string =>
  JSON.stringify([
    method.toUpperCase(),
    sortedUrl(url),
    json !== undefined ? canonicalJson(json) : (text ?? ""),
  ]);

/** The match key of a recorded interaction. */
export const interactionKey = (i: CassetteInteraction): string =>
  keyOf(i.method, i.url, i.request_json, i.request_text);

/** A request body as a cassette stores it: `request_json` when it parses, else `request_text`. */
export const requestBody = (
  body: string | undefined,
  scrub: Scrubber,
): { request_json?: unknown; request_text?: string } => {
  if (body === undefined || body === "") return {};
  try {
    return { request_json: scrub.json(JSON.parse(body)) };
  } catch {
    return { request_text: scrub.text(body) };
  }
};

/** The match key of a live request, scrubbed as a recording would be. */
export const liveKey = (method: string, url: string, body: string | undefined, scrub: Scrubber): string => {
  const stored = requestBody(body, scrub);
  return keyOf(method, scrub.text(url), stored.request_json, stored.request_text);
};
