import { readFileSync } from "node:fs";
import { type Emulator, type EmulatorResponse, loadJson } from "@quiver/testing";
import { type AgentUpstream, routeAgent } from "./agent-upstream.js";
import { invalid, problem, record, SDK_TYPES } from "./sdk-request-check.js";

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

/** The Sonar models the emulator knows (the SDK's request takes any string; these are the documented ones). */
export const EMULATED_MODELS = ["sonar", "sonar-pro", "sonar-reasoning-pro", "sonar-deep-research"];

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
 * Registers Perplexity's `POST /search` and `POST /chat/completions` on an emulator, and the Agent
 * API's background routes (agent-upstream.ts; answered: its runs and cancels). Requests without
 * `Authorization: Bearer <key>` get the HTML 401 page; a body the SDK's request type does not allow
 * (a missing or mistyped field, a field it does not have, a bad message role) gets a 400 in
 * Perplexity's error envelope; an unknown model gets the recorded `invalid_model` 400; the Search API
 * honours `max_results`.
 */
export const routePerplexity = (up: Emulator, key: string): AgentUpstream => {
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
  return routeAgent(up, key);
};
