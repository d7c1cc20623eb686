import { readFileSync } from "node:fs";
import { type Emulator, loadJson } from "@quiver/testing";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

/** The recorded Sonar answer (7 bare citations, no search_results). */
export const CHAT = loadJson<Record<string, any>>(fixture("chat-sonar-citations.json"));
/** The recorded `search_results` + `usage` members of a Sonar answer. */
export const SEARCH_RESULTS_MEMBERS = loadJson<Record<string, any>>(fixture("search-results-usage.json"));
/** A Search API answer in the documented shape. */
export const SEARCH = loadJson<{ results: Array<Record<string, unknown>> }>(
  fixture("search-san-francisco.json"),
);
/** The recorded 400 for an unknown model. */
export const INVALID_MODEL = loadJson(fixture("error-invalid-model.json"));
/** The HTML page Perplexity's proxy serves for a bad key. */
export const UNAUTHORISED_HTML = readFileSync(fixture("401-authorization-required.html.txt"), "utf8");

/**
 * Registers Perplexity's `POST /search` and `POST /chat/completions` on an emulator. Requests without
 * `Authorization: Bearer <key>` get the HTML 401 page; a body without `query` (or `messages`) gets a
 * 400 in Perplexity's error envelope; the Search API honours `max_results`.
 */
export const routePerplexity = (up: Emulator, key: string): void => {
  const unauthorised = { status: 401, headers: { "content-type": "text/html" }, body: UNAUTHORISED_HTML };
  const invalid = (param: string) => ({
    status: 400,
    json: {
      error: {
        message: `invalid request body: missing field "${param}"`,
        type: "invalid_request",
        code: 400,
        param,
      },
    },
  });
  up.route("POST", "/search", (req) => {
    if (req.headers.authorization !== `Bearer ${key}`) return unauthorised;
    const body = req.json as { query?: unknown; max_results?: number } | undefined;
    if (!body?.query) return invalid("query");
    return { json: { ...SEARCH, results: SEARCH.results.slice(0, body.max_results ?? 10) } };
  });
  up.route("POST", "/chat/completions", (req) => {
    if (req.headers.authorization !== `Bearer ${key}`) return unauthorised;
    const body = req.json as { messages?: unknown; model?: string } | undefined;
    if (!body?.messages) return invalid("messages");
    if (!["sonar", "sonar-pro", "sonar-reasoning-pro", "sonar-deep-research"].includes(body.model ?? "")) {
      return { status: 400, json: INVALID_MODEL };
    }
    return { json: { ...CHAT, model: body.model } };
  });
};
