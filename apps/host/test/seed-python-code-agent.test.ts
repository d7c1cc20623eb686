import { loadJson } from "@quiver/testing";
import {
  CHAT,
  SEARCH,
  UNAUTHORISED_HTML,
} from "../../../packages/plugins/perplexity/test/perplexity-upstream.js";
import type { Upstreams } from "./fault-matrix/upstreams.js";
import { fixture, SEED_KEYS } from "./seed-python/harness.js";
import { describeSeedSuite } from "./seed-python/seed-suite.js";

// Issue 26 item 6: the code agent's own calls, in Python (clients/python/tests/test_code_agent.py),
// against `quiver serve --profile code-agent` over HTTP and MCP. Context7 and Perplexity are emulators
// serving their documented shapes (the plugins' recorded fixtures); Context7 sits behind a TCP relay so
// the Python suite can take it down. A second server runs without PERPLEXITY_API_KEY. The suite also
// starts the profile itself over MCP stdio (the built CLI), as the agent starts its MCP servers.

/** React's useState page and a Sonar answer on async Python, served in the upstreams' recorded shapes. */
const routeSeedAnswers = (u: Upstreams) => {
  // As routePerplexity: a request without the key gets Perplexity's HTML 401 page.
  const unauthorised = { status: 401, headers: { "content-type": "text/html" }, body: UNAUTHORISED_HTML };
  const react = loadJson(fixture("context7-react-usestate.json"));
  u.context7.route(
    "GET",
    "/api/v2/context",
    { json: react },
    {
      when: (req) => req.query.get("libraryId") === "/facebook/react",
    },
  );
  const asyncAnswer = loadJson<{ content: string; citations: string[]; search_results: unknown[] }>(
    fixture("perplexity-python-async.json"),
  );
  u.perplexity.route("POST", "/chat/completions", (req) => {
    if (req.headers.authorization !== `Bearer ${SEED_KEYS.PERPLEXITY_API_KEY}`) return unauthorised;
    const body = req.json as { model?: string };
    return {
      json: {
        ...CHAT,
        model: body.model ?? "sonar",
        citations: asyncAnswer.citations,
        search_results: asyncAnswer.search_results,
        choices: [{ ...CHAT.choices[0], message: { role: "assistant", content: asyncAnswer.content } }],
      },
    };
  });
  u.perplexity.route("POST", "/search", (req) => {
    if (req.headers.authorization !== `Bearer ${SEED_KEYS.PERPLEXITY_API_KEY}`) return unauthorised;
    return { json: { ...SEARCH, results: asyncAnswer.search_results } };
  });
};

describeSeedSuite({
  title: "the code agent's Python suite against quiver serve --profile code-agent",
  module: "test_code_agent",
  profile: "code-agent",
  plugins: ["@quiver/plugin-context7", "@quiver/plugin-perplexity"],
  control: ["context7", "perplexity"],
  relayed: ["context7"],
  route: routeSeedAnswers,
  start: async ({ settings, relays, serve, stdio }) => {
    const env = { ...settings.env, CONTEXT7_API_URL: `http://127.0.0.1:${relays.context7!.port}/api` };
    const { PERPLEXITY_API_KEY: _dropped, ...envWithoutKey } = env;
    const [withKey, withoutKey] = await Promise.all([serve(env), serve(envWithoutKey)]);
    return { QUIVER_URL: withKey.url, QUIVER_URL_NO_PERPLEXITY_KEY: withoutKey.url, ...stdio(env) };
  },
});
