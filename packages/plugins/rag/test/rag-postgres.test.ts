import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCatalog } from "@quiver/core";
import { runPluginCommand, testPostgres } from "@quiver/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createRagPlugin, type RagOutput } from "../src/index.js";

// The embedded index in PostgreSQL (QUIVER_TEST_DATABASE_URL, DATABASE_URL or the local test server), in a
// random schema dropped at the end; skipped, saying why, when no server answers.
const db = await testPostgres("quiver_rag_test");
const { url, schema, admin } = db;
const reason = db.skipReason;
const tmp = await mkdtemp(join(tmpdir(), "rag-pg-"));
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
  await db.dropSchema();
});

describe.skipIf(reason !== undefined)("rag's embedded index on PostgreSQL (DATABASE_URL)", () => {
  it("is built by `quiver rag index` into PostgreSQL and searched by every catalog on it", async () => {
    const env = { DATABASE_URL: url, QUIVER_SEARCH_SCHEMA: schema, RAG_INDEX_NAME: "course" };
    const empty = createCatalog({ env });
    empty.register(createRagPlugin(), { backend: "embedded" });
    const before = await empty.call("rag_search", { query: "algoritmo genético" });
    // An empty index is not served: the envelope says how to build it.
    expect(before.status).toBe("unavailable");
    expect(JSON.stringify(before)).toContain("quiver rag index");
    await empty.close();

    const folder = join(tmp, "material", "metaheuristicas", "apuntes");
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, "tema5.md"),
      "# Algoritmos genéticos\n\nUn algoritmo genético mantiene una población de cromosomas que evoluciona por selección, cruce y mutación.\n",
    );
    const built = await runPluginCommand(createRagPlugin(), "index", {
      args: [join(tmp, "material")],
      flags: {},
      json: true,
      cwd: tmp,
      env,
      options: {},
    });
    expect(built.exitCode).toBe(0);
    expect(JSON.stringify(built.json)).toContain(`#${schema}.course`);
    expect(JSON.stringify(built.json)).not.toContain("postgres@");

    const replicas = [createCatalog({ env }), createCatalog({ env })];
    try {
      for (const catalog of replicas) {
        catalog.register(createRagPlugin(), { backend: "embedded" });
        const r = await catalog.call("rag_search", {
          query: "cromosomas población",
          asignatura: "Metaheurísticas",
        });
        expect(r.status).toBe("success");
        expect((r.data as RagOutput).results[0]?.metadata).toMatchObject({
          asignatura: "metaheuristicas",
          tipo_documento: "apuntes",
        });
      }
    } finally {
      await Promise.all(replicas.map((c) => c.close()));
    }
    const rows = await admin((c) =>
      c.query(`SELECT DISTINCT index_name, principal FROM ${schema}.documents`),
    );
    expect(rows.rows).toEqual([{ index_name: "course", principal: "" }]);
  });

  it("answers unavailable (retryable), without the password, when the database cannot be reached", async () => {
    const catalog = createCatalog({ env: { DATABASE_URL: "postgres://quiver:s3cret@127.0.0.1:9/test" } });
    catalog.register(createRagPlugin(), { backend: "embedded" });
    try {
      const r = await catalog.call("rag_search", { query: "algoritmo genético" });
      expect(r.status).toBe("unavailable");
      expect(JSON.stringify(r)).not.toContain("s3cret");
      expect(JSON.stringify(r)).toMatch(/retryable":true/);
    } finally {
      await catalog.close();
    }
  });
});
