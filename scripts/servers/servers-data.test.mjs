// The servers whose plugins read data the user points them at (or that the package ships): each
// bundled server started as an MCP client starts it and a tool called, so the bundle is proven to
// carry what the call needs (guia's seed guides, node:sqlite for rag and private-repo, the fda
// base-URL setting an emulator or a mirror needs, the principal a one-person server runs as).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envOf, launch, mainOf, textOf } from "./launch-server.mjs";
import { root } from "./served-plugins.mjs";

const run = promisify(execFile);

/** Calls one tool on a freshly launched server; resolves with the result and the server's stderr. */
const callOnce = async (id, env, name, args, cwd) => {
  const { client, out } = await launch(id, env, undefined, undefined, cwd);
  try {
    return { result: await client.callTool({ name, arguments: args }), stderr: out.stderr };
  } finally {
    await client.close();
  }
};

let tmp;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "quiver-servers-data-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("servers that need data", () => {
  it("guia: with no setting at all, it answers from the seed guides the package ships", async () => {
    const { result } = await callOnce("guia", {}, "guia_get_guide", { asignatura: "metaheuristicas" }, tmp);
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain("Metaheurísticas");
  });

  it("rag: RAG_INDEX_PATH names a SQLite index (node:sqlite, bundled) that rag_search reads", async () => {
    // The index as `quiver rag index` writes it, built with @quiver/search's own build.
    const search = await import(pathToFileURL(join(root, "packages/search/dist/index.js")).href);
    const path = join(tmp, "course.db");
    const index = await search.openSearchIndex({ path });
    await index.add([
      { id: "tema-3", title: "Tema 3", text: "Los algoritmos genéticos cruzan y mutan una población." },
    ]);
    await index.close();
    const { result } = await callOnce("rag", { RAG_INDEX_PATH: path }, "rag_search", {
      query: "algoritmos genéticos",
    });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain("mutan una población");
  });

  it("private-repo: QUIVER_PRINCIPAL is who the calls are made as; without it the server does not start", async () => {
    const env = { QUIVER_PRIVATE_REPO: join(tmp, "repo") };
    const stopped = await run(process.execPath, [mainOf("private-repo")], { env: envOf(env) }).catch(
      (e) => e,
    );
    expect(stopped.code).toBe(78);
    expect(stopped.stderr).toContain("QUIVER_PRINCIPAL is not set");
    const { result } = await callOnce(
      "private-repo",
      { ...env, QUIVER_PRINCIPAL: "alice" },
      "private_repo_list_collections",
      {},
    );
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).not.toContain("access_denied");
  });

  it("testgen: with no LLM configured, questions come from the rule-based fallback", async () => {
    const { result } = await callOnce("testgen", {}, "testgen_generate_test", {
      topic: "algoritmos genéticos",
      context: "Un algoritmo genético evoluciona una población mediante selección, cruce y mutación.",
    });
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ data: { generated_by: "rules" } });
  });

  it("fda: OPENFDA_BASE_URL points the server at another openFDA (here its emulator)", async () => {
    const up = await startEmulator();
    try {
      const body = readFileSync(
        join(root, "packages/plugins/fda/test/fixtures/drugsfda/drugsfda_tirzepatide_limit1.json"),
        "utf8",
      );
      up.route("GET", "/drug/drugsfda.json", { json: JSON.parse(body) });
      const { result } = await callOnce("fda", { OPENFDA_BASE_URL: up.url }, "fda_search_drugs", {
        search_criteria: { generic_name: "tirzepatide" },
      });
      expect(result.isError).not.toBe(true);
      expect(textOf(result).toLowerCase()).toContain("tirzepatide");
      expect(up.requestsTo("GET", "/drug/drugsfda.json").length).toBeGreaterThan(0);
    } finally {
      await up.close();
    }
  });
});
