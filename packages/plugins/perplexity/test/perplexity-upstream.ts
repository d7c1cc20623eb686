import { readFileSync } from "node:fs";
import { type Emulator, type EmulatorResponse, loadJson } from "@quiver/testing";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

/** The recorded Sonar answer (7 bare citations, no search_results). */
export const CHAT = loadJson<Record<string, any>>(fixture("chat-sonar-citations.json"));
/**
 * The recorded Sonar answer with `message.content` as a list of content chunks, as the SDK types it
 * (`ChatMessageContentTextChunk` `{ type: "text", text }`, here split at sentence ends, plus an image
 * chunk that carries no text).
 */
export const CHAT_CHUNKED = {
  ...CHAT,
  choices: CHAT.choices.map((choice: Record<string, any>) => ({
    ...choice,
    message: {
      ...choice.message,
      content: [
        ...(choice.message.content as string).split(/(?<=\.\s)/).map((text) => ({ type: "text", text })),
        { type: "image_url", image_url: "https://upload.wikimedia.org/sf.png" },
      ],
    },
  })),
};
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

type Fields = Record<string, { readonly required: boolean; readonly type: string }>;
interface SdkTypes {
  readonly "POST /search": { readonly request: Fields };
  readonly "POST /chat/completions": {
    readonly request: Fields;
    readonly ChatMessageInput: Fields;
    readonly ChatMessageRole: ReadonlyArray<string>;
  };
}
/** Request types of the official SDK (`@perplexity-ai/perplexity_ai`, `src/generated/api.ts`). */
export const SDK_TYPES = loadJson<SdkTypes>(fixture("perplexity-sdk-types.json"));

/** The Sonar models the emulator knows (the SDK's request takes any string; these are the documented ones). */
export const EMULATED_MODELS = ["sonar", "sonar-pro", "sonar-reasoning-pro", "sonar-deep-research"];

/**
 * Whether `value` fits a TypeScript type of the SDK's generated file, as far as it can be read from
 * its text: primitives, arrays of them, string-literal unions, `| null`. Other types (objects named
 * by other generated types) are accepted: the plugin sends none of them.
 */
const fits = (type: string, value: unknown): boolean => {
  const members = type
    .replace(/^\((.*)\)$/, "$1")
    .split(/ \| (?![^(]*\))/)
    .map((t) => t.trim().replace(/^\((.*)\)$/, "$1"));
  if (members.length > 1) return members.some((m) => fits(m, value));
  const [t] = members as [string];
  if (t === "null") return value === null;
  if (t === "string") return typeof value === "string";
  if (t === "number") return typeof value === "number" && Number.isFinite(value);
  if (t === "boolean") return typeof value === "boolean";
  if (/^"[^"]*"( \| "[^"]*")*$/.test(t)) return t.split(" | ").some((lit) => JSON.parse(lit) === value);
  if (t.endsWith("[]") && !t.includes(" | "))
    return Array.isArray(value) && value.every((v) => fits(t.slice(0, -2), v));
  return true;
};

/** The first problem of `body` against the SDK's fields: unknown, missing or mistyped. */
const problem = (fields: Fields, body: Record<string, unknown>, where = ""): [string, string] | undefined => {
  for (const name of Object.keys(body)) {
    if (!(name in fields)) return [`${where}${name}`, `json: unknown field "${where}${name}"`];
  }
  for (const [name, { required, type }] of Object.entries(fields)) {
    const value = body[name];
    if (value === undefined) {
      if (required) return [`${where}${name}`, `missing field "${where}${name}"`];
      continue;
    }
    if (!fits(type, value)) return [`${where}${name}`, `field "${where}${name}" is not ${type}`];
  }
  return undefined;
};

/** Perplexity's error envelope for a request body it refuses. */
const invalid = ([param, message]: [string, string]): EmulatorResponse => ({
  status: 400,
  json: { error: { message: `invalid request body: ${message}`, type: "invalid_request", code: 400, param } },
});

const record = (json: unknown): Record<string, unknown> | undefined =>
  typeof json === "object" && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;

/** The refusal of a `POST /search` body (SDK `ApiSearchRequest`; `search_domain_filter` holds at most 20). */
export const refuseSearch = (json: unknown): EmulatorResponse | undefined => {
  const body = record(json);
  if (!body) return invalid(["", "the body is not a JSON object"]);
  const found = problem(SDK_TYPES["POST /search"].request, body);
  if (found) return invalid(found);
  if (Array.isArray(body.search_domain_filter) && body.search_domain_filter.length > 20)
    return invalid(["search_domain_filter", "search_domain_filter holds at most 20 domains"]);
  return undefined;
};

/** The refusal of a `POST /chat/completions` body (SDK `ApiChatCompletionsRequest`, `ChatMessageInput`). */
export const refuseChat = (json: unknown): EmulatorResponse | undefined => {
  const types = SDK_TYPES["POST /chat/completions"];
  const body = record(json);
  if (!body) return invalid(["", "the body is not a JSON object"]);
  const found = problem(types.request, body);
  if (found) return invalid(found);
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return invalid(["messages", 'field "messages" must be a non-empty list']);
  for (const [i, m] of body.messages.entries()) {
    const message = record(m);
    if (!message) return invalid([`messages[${i}]`, `messages[${i}] is not an object`]);
    const bad = problem(types.ChatMessageInput, message, `messages[${i}].`);
    if (bad) return invalid(bad);
    if (!types.ChatMessageRole.includes(String(message.role)))
      return invalid([`messages[${i}].role`, `role must be one of ${types.ChatMessageRole.join(", ")}`]);
  }
  if (Array.isArray(body.search_domain_filter) && body.search_domain_filter.length > 20)
    return invalid(["search_domain_filter", "search_domain_filter holds at most 20 domains"]);
  return undefined;
};

/**
 * Registers Perplexity's `POST /search` and `POST /chat/completions` on an emulator. Requests without
 * `Authorization: Bearer <key>` get the HTML 401 page; a body the SDK's request type does not allow
 * (a missing or mistyped field, a field it does not have, a bad message role) gets a 400 in
 * Perplexity's error envelope; an unknown model gets the recorded `invalid_model` 400; the Search API
 * honours `max_results`.
 */
export const routePerplexity = (up: Emulator, key: string): void => {
  const unauthorised = { status: 401, headers: { "content-type": "text/html" }, body: UNAUTHORISED_HTML };
  up.route("POST", "/search", (req) => {
    if (req.headers.authorization !== `Bearer ${key}`) return unauthorised;
    const refused = refuseSearch(req.json);
    if (refused) return refused;
    const max = (req.json as { max_results?: number }).max_results ?? 10;
    return { json: { ...SEARCH, results: SEARCH.results.slice(0, max) } };
  });
  up.route("POST", "/chat/completions", (req) => {
    if (req.headers.authorization !== `Bearer ${key}`) return unauthorised;
    const refused = refuseChat(req.json);
    if (refused) return refused;
    const model = (req.json as { model: string }).model;
    if (!EMULATED_MODELS.includes(model)) return { status: 400, json: INVALID_MODEL };
    return { json: { ...CHAT, model } };
  });
};
