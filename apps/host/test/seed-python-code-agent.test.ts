import { loadJson, startTcpRelay, type TcpRelay } from "@quiver/testing";
import { afterAll, beforeAll } from "vitest";
import {
  CHAT,
  SEARCH,
  UNAUTHORISED_HTML,
} from "../../../packages/plugins/perplexity/test/perplexity-upstream.js";
import { pluginSettings, startUpstreams, type Upstreams } from "./fault-matrix/upstreams.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import {
  type ControlServer,
  describePythonSuite,
  fixture,
  PYTHON_MISSING,
  SEED_KEYS,
  SEED_POLICIES,
  startControl,
  stdioSettings,
} from "./seed-python/harness.js";

// Issue 26 item 6: the code agent's own calls, in Python (clients/python/tests/test_code_agent.py),
// against `quiver serve --profile code-agent` over HTTP and MCP. Context7 and Perplexity are emulators
// serving their documented shapes (the plugins' recorded fixtures); Context7 sits behind a TCP relay so
// the Python suite can take it down. A second server runs without PERPLEXITY_API_KEY. The suite also
// starts the profile itself over MCP stdio (the built CLI), as the agent starts its MCP servers.

let up: Upstreams;
let relay: TcpRelay;
let control: ControlServer;
let project: Project;
let serve: ServeProcess;
let withoutKey: ServeProcess;
/** How the Python suite starts the profile over MCP stdio, as the agent starts its MCP servers. */
let stdio: Record<string, string>;

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

beforeAll(async () => {
  if (PYTHON_MISSING) return;
  up = await startUpstreams(SEED_KEYS);
  routeSeedAnswers(up);
  relay = await startTcpRelay("127.0.0.1", up.context7.port);
  control = await startControl({ context7: up.context7, perplexity: up.perplexity }, { context7: relay });
  const settings = pluginSettings(up, SEED_KEYS);
  const env = { ...settings.env, CONTEXT7_API_URL: `http://127.0.0.1:${relay.port}/api` };
  project = makeProject({
    workspace: ["@quiver/plugin-context7", "@quiver/plugin-perplexity"],
    config: { name: "quiver.config.json", text: JSON.stringify({ policies: SEED_POLICIES }) },
  });
  stdio = stdioSettings("code-agent", project.dir, env);
  const { PERPLEXITY_API_KEY: _dropped, ...envWithoutKey } = env;
  [serve, withoutKey] = await Promise.all([
    startServe(["--profile", "code-agent"], { cwd: project.dir, env }),
    startServe(["--profile", "code-agent"], { cwd: project.dir, env: envWithoutKey }),
  ]);
});
afterAll(async () => {
  for (const s of [serve, withoutKey]) s?.child.kill("SIGTERM");
  await Promise.all([serve?.exited, withoutKey?.exited]);
  project?.cleanup();
  await control?.close();
  await relay?.close();
  await up?.close();
});

describePythonSuite(
  "the code agent's Python suite against quiver serve --profile code-agent",
  "test_code_agent",
  () => ({
    QUIVER_URL: serve.url,
    QUIVER_URL_NO_PERPLEXITY_KEY: withoutKey.url,
    QUIVER_SEED_CONTROL_URL: control.url,
    ...stdio,
  }),
);
