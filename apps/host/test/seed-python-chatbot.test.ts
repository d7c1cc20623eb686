import { startEmulator } from "@quiver/testing";
import { completion, mcQuestions } from "../../../packages/plugins/testgen/test/llm-fixtures.js";
import { describeSeedSuite } from "./seed-python/seed-suite.js";

// Issue 26 item 6: the course chatbot's own calls, in Python (clients/python/tests/test_chatbot.py),
// against `quiver serve --profile chatbot` over HTTP and MCP. One server in demo mode serves the real
// UGR guides and the course material the plugins ship (the LLM an emulator answering a recorded
// completion); a second one uses the chatbot's RAG service (RAG_SERVICE_URL: an emulator behind a TCP
// relay, which the Python suite makes hang, fail or go away) for rag_search's error strings. The
// chatbot's backend (an emulator) holds one professor's test preferences.

describeSeedSuite({
  title: "the course chatbot's Python suite against quiver serve --profile chatbot",
  module: "test_chatbot",
  profile: "chatbot",
  plugins: ["@quiver/plugin-guia", "@quiver/plugin-rag", "@quiver/plugin-testgen"],
  control: ["rag", "llm"],
  relayed: ["rag"],
  route: (up) => up.llm.route("POST", "/v1/chat/completions", { json: completion(mcQuestions(3)) }),
  start: async ({ settings, relays, serve, stdio, defer }) => {
    // The chatbot's backend: a professor's preferences for metaheuristicas; other subjects get a 404.
    const backend = await startEmulator();
    defer(() => backend.close());
    backend.route("GET", "/users/subject/metaheuristicas/preferences", {
      json: { default_test_questions: 4, default_test_difficulty: "hard" },
    });
    // guia reads the guides it ships (no MONGODB_URI); the demo server's rag its embedded demo index.
    const { MONGODB_URI: _mongo, ...env } = settings.env;
    const { RAG_SERVICE_URL: _embedded, ...rest } = env;
    const demoEnv = { ...rest, BACKEND_SERVICE_URL: backend.url };
    const [demo, ragService] = await Promise.all([
      serve(demoEnv, ["--demo"]),
      serve({ ...env, RAG_SERVICE_URL: `http://127.0.0.1:${relays.rag!.port}` }),
    ]);
    return {
      QUIVER_URL: demo.url,
      QUIVER_URL_RAG_SERVICE: ragService.url,
      ...stdio(demoEnv, ["--demo"]),
    };
  },
});
