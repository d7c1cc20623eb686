import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSearchIndex } from "@quiver/search";
import { runPluginCommand, useCatalog } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A real schema-1 index (as @quiver/search 0.1.0 wrote it), from the search package's migration fixture.
import { writeSqliteV1 } from "../../../search/test/fixtures/schema-v1.js";
import { createRagPlugin, type RagOutput } from "../src/index.js";

// The rag plugin's resources through a real catalog: a whole document of the embedded index, byte for byte
// what was indexed, and a collection's list, on the index `quiver rag index` builds.
let tmp: string;
let indexPath: string;
/** A text the chunker splits into overlapping chunks, with what a rebuild from chunks would lose. */
const LONG = `  Leading spaces,\r\nCRLF lines, tabs\t, "quotes", emoji 🧬 and accents: búsqueda tabú.\n\n${Array.from(
  { length: 700 },
  (_, i) => `palabra${i}`,
).join(" ")}\n\ttrailing whitespace   \n`;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "rag-resources-"));
  indexPath = join(tmp, "index.db");
  await mkdir(join(tmp, "material"));
  const tema = "# Tema 1\n\nEl enfriamiento simulado acepta peores soluciones.\n";
  await writeFile(join(tmp, "material", "tema1.md"), tema);
  const built = await runPluginCommand(createRagPlugin(), "index", {
    args: ["material"],
    flags: { index: indexPath, asignatura: "metaheuristicas" },
    json: false,
    cwd: tmp,
    env: {},
  });
  expect(built.exitCode, built.lines.join("\n")).toBe(0);
  const index = await openSearchIndex({ path: indexPath });
  await index.add([{ id: "apuntes/largo 1#2", title: "Largo", text: LONG }]);
  await index.add([{ id: "otro", text: "Otra colección." }], { collection: "extra" });
  await index.close();
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const makeCatalog = useCatalog({ env: {} });
const open = (options: Record<string, unknown> = { indexPath }) => {
  const catalog = makeCatalog();
  catalog.register(createRagPlugin(), options);
  return catalog;
};
const textOf = (answer: { ok: boolean; value?: unknown }) =>
  (answer as { value: ReadonlyArray<{ text: string; mimeType?: string }> }).value[0]!;

describe("rag resources", () => {
  it("lists a document template and a collection template", () => {
    const templates = open().resourceTemplates();
    expect(templates.map((t) => [t.uriTemplate, t.mimeType])).toEqual([
      ["rag://documents/{collection}/{id}", "text/plain"],
      ["rag://collections/{collection}", "application/json"],
    ]);
  });

  it("reads a document back exactly as indexed, by the URI a search result gives", async () => {
    const catalog = open();
    const found = await catalog.call("rag_search", { query: "palabra650 búsqueda tabú" });
    const hit = (found.data as RagOutput).results.find((r) => r.metadata.doc_id === "apuntes/largo 1#2")!;
    expect(hit.metadata.document_uri).toBe("rag://documents/default/apuntes%2Flargo%201%232");
    expect(hit.metadata.chunks).toBeGreaterThan(1);
    const read = await catalog.readResource(hit.metadata.document_uri as string);
    expect(read.ok).toBe(true);
    expect(textOf(read)).toEqual({
      uri: "rag://documents/default/apuntes%2Flargo%201%232",
      mimeType: "text/plain",
      text: LONG,
    });
    expect(Buffer.from(textOf(read).text, "utf8").equals(Buffer.from(LONG, "utf8"))).toBe(true);
  });

  it("serves a Markdown file's text as text/markdown", async () => {
    const read = await open().readResource(`rag://documents/default/${encodeURIComponent("tema1.md")}`);
    expect(textOf(read)).toMatchObject({
      mimeType: "text/markdown",
      text: "# Tema 1\n\nEl enfriamiento simulado acepta peores soluciones.\n",
    });
  });

  it("lists a collection's documents as JSON with each one's URI, never their texts", async () => {
    const read = await open().readResource("rag://collections/default");
    expect(textOf(read).mimeType).toBe("application/json");
    const listed = JSON.parse(textOf(read).text);
    expect(listed).toMatchObject({ collection: "default", count: 2 });
    expect(listed.documents).toContainEqual({
      id: "apuntes/largo 1#2",
      title: "Largo",
      size: LONG.length,
      bytes: Buffer.byteLength(LONG),
      uri: "rag://documents/default/apuntes%2Flargo%201%232",
    });
    expect(textOf(read).text).not.toContain("palabra650");
    const extra = JSON.parse(textOf(await open().readResource("rag://collections/extra")).text);
    expect(extra.documents.map((d: { id: string }) => d.id)).toEqual(["otro"]);
  });

  it("completes collection names from the index", async () => {
    const target = { uriTemplate: "rag://collections/{collection}", argument: "collection" };
    expect(await open().complete(target, "ex")).toEqual({ ok: true, value: ["extra"] });
  });

  it("answers not_found for an unknown id, collection or an empty name, with nothing else said", async () => {
    const catalog = open();
    expect(await catalog.readResource("rag://documents/default/nope")).toMatchObject({
      ok: false,
      kind: "not_found",
    });
    expect(await catalog.readResource("rag://collections/empty")).toMatchObject({
      ok: false,
      kind: "not_found",
    });
    expect(await catalog.readResource("rag://collections/")).toMatchObject({ ok: false, kind: "not_found" });
  });

  it("is unavailable on the HTTP backend, and for an index that does not exist", async () => {
    const http = open({ serviceUrl: "http://127.0.0.1:9/rag" });
    const read = await http.readResource("rag://collections/default");
    expect(read).toMatchObject({ ok: false, kind: "unavailable" });
    expect((read as { message: string }).message).toContain("embedded index");
    const missing = await open({ indexPath: join(tmp, "none.db") }).readResource("rag://collections/default");
    expect(missing).toMatchObject({ ok: false, kind: "unavailable" });
  });

  it("answers a document indexed before texts were kept unavailable, saying so, never rebuilt from chunks", async () => {
    const path = join(tmp, "v1.db");
    const db = new DatabaseSync(path);
    writeSqliteV1(db, [
      { id: "old", title: "Tabú", text: "La búsqueda tabú prohíbe movimientos recientes." },
    ]);
    db.close();
    const catalog = open({ indexPath: path });
    const read = await catalog.readResource("rag://documents/default/old");
    expect(read).toMatchObject({ ok: false, kind: "unavailable" });
    expect((read as { message: string }).message).toContain(
      "indexed before @quiver/search kept original texts",
    );
    expect(JSON.stringify(read)).not.toContain("prohíbe");
    const listed = JSON.parse(textOf(await catalog.readResource("rag://collections/default")).text);
    expect(listed.documents).toEqual([
      { id: "old", title: "Tabú", textMissing: expect.any(String), uri: "rag://documents/default/old" },
    ]);
  });
});
