import { type Emulator, startEmulator, startTcpRelay, type TcpRelay } from "@quiver/testing";
import { afterAll, beforeAll } from "vitest";
import { completion, mcQuestions } from "../../../packages/plugins/testgen/test/llm-fixtures.js";
import { pluginSettings, startUpstreams, type Upstreams } from "./fault-matrix/upstreams.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";
import {
  type ControlServer,
  describePythonSuite,
  PYTHON_MISSING,
  SEED_KEYS,
  SEED_POLICIES,
  startControl,
  stdioSettings,
} from "./seed-python/harness.js";

// Issue 26 item 6: the course chatbot's own calls, in Python (clients/python/tests/test_chatbot.py),
// against `quiver serve --profile chatbot` over HTTP and MCP. One server in demo mode serves the real
// UGR guides and the course material the plugins ship (the LLM an emulator answering a recorded
// completion); a second one uses the chatbot's RAG service (RAG_SERVICE_URL: an emulator behind a TCP
// relay, which the Python suite makes hang, fail or go away) for rag_search's error strings. The
// chatbot's backend (an emulator) holds one professor's test preferences.

let up: Upstreams;
let backend: Emulator;
let relay: TcpRelay;
let control: ControlServer;
let project: Project;
let demo: ServeProcess;
let ragService: ServeProcess;
/** How the Python suite starts the demo profile over MCP stdio. */
let stdio: Record<string, string>;

beforeAll(async () => {
  if (PYTHON_MISSING) return;
  up = await startUpstreams(SEED_KEYS);
  up.llm.route("POST", "/v1/chat/completions", { json: completion(mcQuestions(3)) });
  // The chatbot's backend: a professor's preferences for metaheuristicas; other subjects get a 404.
  backend = await startEmulator();
  backend.route("GET", "/users/subject/metaheuristicas/preferences", {
    json: { default_test_questions: 4, default_test_difficulty: "hard" },
  });
  relay = await startTcpRelay("127.0.0.1", up.rag.port);
  control = await startControl({ rag: up.rag, llm: up.llm }, { rag: relay });
  // guia reads the guides it ships (no MONGODB_URI); the demo server's rag its embedded demo index.
  const { MONGODB_URI: _mongo, ...env } = pluginSettings(up, SEED_KEYS).env;
  const { RAG_SERVICE_URL: _embedded, ...rest } = env;
  const demoEnv = { ...rest, BACKEND_SERVICE_URL: backend.url };
  project = makeProject({
    workspace: ["@quiver/plugin-guia", "@quiver/plugin-rag", "@quiver/plugin-testgen"],
    config: { name: "quiver.config.json", text: JSON.stringify({ policies: SEED_POLICIES }) },
  });
  stdio = stdioSettings("chatbot", project.dir, demoEnv, ["--demo"]);
  [demo, ragService] = await Promise.all([
    startServe(["--profile", "chatbot", "--demo"], { cwd: project.dir, env: demoEnv }),
    startServe(["--profile", "chatbot"], {
      cwd: project.dir,
      env: { ...env, RAG_SERVICE_URL: `http://127.0.0.1:${relay.port}` },
    }),
  ]);
});
afterAll(async () => {
  for (const s of [demo, ragService]) s?.child.kill("SIGTERM");
  await Promise.all([demo?.exited, ragService?.exited]);
  project?.cleanup();
  await control?.close();
  await relay?.close();
  await backend?.close();
  await up?.close();
});

describePythonSuite(
  "the course chatbot's Python suite against quiver serve --profile chatbot",
  "test_chatbot",
  () => ({
    QUIVER_URL: demo.url,
    QUIVER_URL_RAG_SERVICE: ragService.url,
    QUIVER_SEED_CONTROL_URL: control.url,
    ...stdio,
  }),
);
