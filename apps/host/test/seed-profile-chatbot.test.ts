import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completion, mcQuestions } from "../../../packages/plugins/testgen/test/llm-fixtures.js";
import { makeProject, type Project, runQuiver, type ServeProcess, startServe } from "./helpers.js";

// The course chatbot's three tools against `quiver serve --profile chatbot`, over real sockets: the
// guides and course material of demo mode, the RAG service, the LLM and the professors' backend
// emulated. Each answer is compared with what the chatbot's own Python functions returned:
// `rag_search` a dict, `get_guia` a str (json.dumps of the section or summary), `generate_test` a
// list of `{question: {question_text, difficulty}, options}`. `asignatura` comes from the session.

let llm: Emulator;
let backend: Emulator;
let rag: Emulator;
let project: Project;
let serve: ServeProcess;

const PASSAGES = [
  {
    content: "La evaluación ordinaria consta de un examen final (50%) y prácticas (50%).",
    metadata: { source: "guia.pdf", asignatura: "metaheuristicas" },
    score: 0.83,
  },
  {
    content: "Las prácticas se entregan en la plataforma.",
    metadata: { source: "practicas.pdf", asignatura: "metaheuristicas" },
    score: 0.41,
  },
];

beforeAll(async () => {
  [llm, backend, rag] = await Promise.all([startEmulator(), startEmulator(), startEmulator()]);
  llm.route("POST", "/v1/chat/completions", { json: completion(mcQuestions(3)) });
  // The most recent matching route answers: the catch-all first.
  backend.route("GET", /.*/, { status: 404, json: { detail: "Not found" } });
  backend.route("GET", "/users/subject/metaheuristicas/preferences", {
    json: { default_test_questions: 2, default_test_difficulty: "hard" },
  });
  // The service reports 12 matches and returns 2: total_results is what was returned.
  rag.route("POST", "/search", (req) => ({
    json: { query: (req.json as { query: string }).query, total_results: 12, results: PASSAGES },
  }));
  project = makeProject({
    workspace: ["@quiver/plugin-guia", "@quiver/plugin-rag", "@quiver/plugin-testgen"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        demo: true,
        plugins: {
          rag: { options: { backend: "http", serviceUrl: rag.url } },
          testgen: {
            options: { llmBaseUrl: `${llm.url}/v1`, llmModel: "test-model", backendUrl: backend.url },
          },
        },
      }),
    },
  });
  serve = await startServe(["--profile", "chatbot"], { cwd: project.dir });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  await Promise.all([llm?.close(), backend?.close(), rag?.close()]);
});

const call = async (tool: string, args: unknown, values?: Record<string, unknown>) => {
  const res = await fetch(`${serve.url}/tools/${tool}/call`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(values ? { "x-quiver-session-values": JSON.stringify(values) } : {}),
    },
    body: JSON.stringify(args),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as any;
};

const student = { asignatura: "metaheuristicas" };

describe("get_guia returns the chatbot's str", () => {
  it("without key: json.dumps of {subject, asignatura, grado, curso, url, brief_description}", async () => {
    const text = await call("get_guia", {}, student);
    expect(typeof text).toBe("string");
    // Python's json.dumps(..., ensure_ascii=False): ", " and ": " separators, accents as they are.
    expect(text).toMatch(
      /^\{"subject": "metaheuristicas", "asignatura": "Guía docente de Metaheurísticas .*", "grado": /,
    );
    expect(Object.keys(JSON.parse(text))).toEqual([
      "subject",
      "asignatura",
      "grado",
      "curso",
      "url",
      "brief_description",
    ]);
    // Their test: len(brief_description) <= 3 (the first three items).
    expect(JSON.parse(text).brief_description.length).toBeLessThanOrEqual(3);
  });

  it("with key: json.dumps of the section", async () => {
    const text = await call("get_guia", { key: "competencias" }, student);
    expect(typeof text).toBe("string");
    expect(JSON.parse(text)).toEqual(expect.any(Object));
    expect(text).not.toContain("Guía docente de");
  });

  it("the chatbot's error strings: no subject, unknown subject, missing key", async () => {
    expect(await call("get_guia", {})).toBe("No guia found for subject");
    expect(await call("get_guia", {}, { asignatura: "física cuántica" })).toBe(
      "No guia found for subject: física cuántica",
    );
    expect(await call("get_guia", { key: "no_such_section" }, student)).toBe(
      "Key 'no_such_section' not present in guia for subject metaheuristicas",
    );
  });

  it("asignatura from the session overrides the model's (header and wrapper)", async () => {
    const fromHeader = JSON.parse(
      await call("get_guia", { asignatura: "modelos_avanzados_computacion" }, student),
    );
    expect(fromHeader.subject).toBe("metaheuristicas");
    const fromWrapper = JSON.parse(
      await call("get_guia", {
        input: { asignatura: "modelos_avanzados_computacion" },
        session: { values: { asignatura: "metaheuristicas" } },
      }),
    );
    expect(fromWrapper.subject).toBe("metaheuristicas");
  });
});

describe("rag_search returns the chatbot's dict", () => {
  it("{ok, query, total_results, results}: total_results counts the results returned", async () => {
    const r = await call("rag_search", { query: "¿Cómo se evalúa?" }, student);
    expect(r).toEqual({ ok: true, query: "¿Cómo se evalúa?", total_results: 2, results: PASSAGES });
    expect(JSON.parse(rag.requests.at(-1)!.body).asignatura).toBe("metaheuristicas");
  });

  it("a call's time limit (X-Quiver-Timeout-Ms) bounds it: RAG service timeout", async () => {
    rag.fault("POST", "/search", { kind: "hang" });
    try {
      const started = Date.now();
      const res = await fetch(`${serve.url}/tools/rag_search/call`, {
        method: "POST",
        headers: {
          "x-quiver-session-values": JSON.stringify(student),
          "x-quiver-timeout-ms": "500",
        },
        body: JSON.stringify({ query: "prácticas" }),
      });
      expect(await res.json()).toEqual({ ok: false, error: "RAG service timeout" });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      rag.clearFaults();
    }
  });

  it("the chatbot's error strings", async () => {
    rag.fault("POST", "/search", { kind: "reset" });
    try {
      expect(await call("rag_search", { query: "evaluación" }, student)).toEqual({
        ok: false,
        error: "Cannot connect to RAG service",
      });
    } finally {
      rag.clearFaults();
    }
    rag.fault("POST", "/search", { kind: "status", status: 400 });
    try {
      expect(await call("rag_search", { query: "evaluación" }, student)).toEqual({
        ok: false,
        error: "Error contacting RAG service",
      });
    } finally {
      rag.clearFaults();
    }
  });
});

describe("generate_test returns the chatbot's list", () => {
  it("[{question: {question_text, difficulty}, options}], count and difficulty from the professor's preferences", async () => {
    const list = await call("generate_test", { topic: "algoritmos genéticos" }, student);
    expect(Array.isArray(list)).toBe(true);
    expect(list).toHaveLength(2);
    for (const t of list) {
      expect(Object.keys(t).sort()).toEqual(["options", "question"]);
      expect(Object.keys(t.question).sort()).toEqual(["difficulty", "question_text"]);
      expect(t.options.filter((o: { is_correct: boolean }) => o.is_correct)).toHaveLength(1);
    }
    expect(backend.requestsTo("GET", "/users/subject/metaheuristicas/preferences")).toHaveLength(1);
    expect(JSON.stringify(llm.requests.at(-1)!.json)).toContain("hard");
  });

  it("explicit arguments win over the preferences", async () => {
    const list = await call("generate_test", { topic: "algoritmos genéticos", num_questions: 3 }, student);
    expect(list).toHaveLength(3);
  });

  it("on any error: the one-question fallback", async () => {
    expect(await call("generate_test", { topic: "x" }, student)).toEqual([
      { question: { question_text: "¿Qué has aprendido sobre x?", difficulty: "medium" }, options: [] },
    ]);
  });
});

describe("over MCP", () => {
  const connect = async (headers: Record<string, string> = {}) => {
    const client = new Client({ name: "chatbot", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), { requestInit: { headers } }),
    );
    return client;
  };

  it("lists the three tools by their names, asignatura hidden", async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      for (const name of ["rag_search", "get_guia", "generate_test"]) {
        const t = tools.find((x) => x.name === name)!;
        expect(t, name).toBeDefined();
        expect(Object.keys(t.inputSchema.properties ?? {})).not.toContain("asignatura");
      }
    } finally {
      await client.close();
    }
  });

  it("get_guia: the text is the str itself, structuredContent {result}; asignatura from the header", async () => {
    const client = await connect({ "x-quiver-session-values": JSON.stringify(student) });
    try {
      const r = await client.callTool({ name: "get_guia", arguments: { asignatura: "otra" } });
      expect(r.isError).toBeFalsy();
      const text = (r.content as Array<{ type: string; text: string }>)[0]!.text;
      expect(JSON.parse(text).subject).toBe("metaheuristicas");
      expect(r.structuredContent).toEqual({ result: text });
    } finally {
      await client.close();
    }
  });

  it("rag_search: structuredContent the dict; generate_test {result: list}; asignatura from _meta", async () => {
    const client = await connect();
    try {
      const r = await client.callTool({
        name: "rag_search",
        arguments: { query: "evaluación" },
        _meta: { "quiver/session-values": student },
      });
      expect(r.structuredContent).toMatchObject({ ok: true, total_results: 2 });
      expect(JSON.parse((r.content as Array<{ text: string }>)[0]!.text)).toEqual(r.structuredContent);
      expect(JSON.parse(rag.requests.at(-1)!.body).asignatura).toBe("metaheuristicas");
      const t = await client.callTool({ name: "generate_test", arguments: { topic: "x" } });
      expect(t.structuredContent).toEqual({
        result: [
          { question: { question_text: "¿Qué has aprendido sobre x?", difficulty: "medium" }, options: [] },
        ],
      });
    } finally {
      await client.close();
    }
  });
});

describe("settings the chatbot's authors tried", () => {
  it("--set guia.sessionAsignatura=override is an error naming what to use, not ignored", async () => {
    const r = await runQuiver(["serve", "--port", "0", "--set", "guia.sessionAsignatura=override"], {
      cwd: project.dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('plugin "guia" has no option "sessionAsignatura"');
    expect(r.stderr).toContain("--profile chatbot");
    const typo = await runQuiver(["serve", "--port", "0", "--set", "rag.serviceUrll=http://127.0.0.1:9"], {
      cwd: project.dir,
    });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "serviceUrl"?');
    const plugin = await runQuiver(["serve", "--port", "0", "--set", "guai.store=folder"], {
      cwd: project.dir,
    });
    expect(plugin.code).toBe(2);
    expect(plugin.stderr).toContain('--set guai.store: no installed plugin "guai"; did you mean "guia"?');
  });

  it("an unknown profile is a usage error naming the valid ones", async () => {
    const r = await runQuiver(["serve", "--port", "0", "--profile", "chatbt"], { cwd: project.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("code-agent, chatbot, co-scientist");
    expect(r.stderr).toContain('did you mean "chatbot"?');
  });

  it("GET /tools lists the profile's tools", async () => {
    const { tools } = (await (await fetch(`${serve.url}/tools`)).json()) as {
      tools: Array<{ name: string; profile?: string }>;
    };
    expect(tools.filter((t) => t.profile === "chatbot").map((t) => t.name)).toEqual([
      "rag_search",
      "get_guia",
      "generate_test",
    ]);
  });
});
