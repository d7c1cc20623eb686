import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addAliceNotes,
  makeProject,
  type Project,
  runQuiver,
  type ServeProcess,
  startServe,
} from "./helpers.js";

// The real plugins' resources on `quiver serve`: a private-repo document read whole over MCP and the HTTP API,
// to alice only (bob gets MCP's resource error and nothing of it), a rag document of the index
// `quiver rag index` built, and a teaching guide; each listed with its plugin.
const SECRET = "qq-alice-cohort-41-of-57";
const BODY = `Our ${SECRET} result.\r\n\tIndented, with accents: résumé.`;
const TOKENS = { "tok-alice-3e9a": "alice", "tok-bob-5d20": "bob" };
const DOC = "private-repo://documents/alice/unpublished/unpublished.md";

let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  const plugins = {
    "private-repo": { options: { indexPath: "repo" } },
    rag: { options: { indexPath: "rag.db" } },
  };
  project = makeProject({
    workspace: ["@quiver/plugin-private-repo", "@quiver/plugin-rag", "@quiver/plugin-guia"],
    config: { name: "quiver.config.json", text: JSON.stringify({ tokens: TOKENS, plugins }) },
  });
  await addAliceNotes(project.dir, "repo", { title: "Unpublished cohort", body: BODY });
  mkdirSync(join(project.dir, "material"));
  writeFileSync(
    join(project.dir, "material", "tema1.txt"),
    "El enfriamiento simulado acepta peores soluciones.",
  );
  const indexed = await runQuiver(["rag", "index", "material", "--index", "rag.db"], { cwd: project.dir });
  expect(indexed.code, indexed.stderr).toBe(0);
  serve = await startServe([], { cwd: project.dir });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
});

const read = async (uri: string, token = "tok-alice-3e9a") => {
  const response = await fetch(`${serve.url}/resources?uri=${encodeURIComponent(uri)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

/** An MCP client over Streamable HTTP with a principal's token. */
const connect = async (token: string) => {
  const client = new Client({ name: "plugin-resources", version: "1.0.0" });
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), { requestInit: { headers } }),
  );
  return client;
};

/** The markdown file `addAliceNotes` writes, without its front matter: the document's text as added. */
const ALICE_TEXT = `\n# Unpublished\n\n${BODY}\n`;

describe("the real plugins' resources on quiver serve", () => {
  it("lists each plugin's templates on the HTTP API", async () => {
    const response = await fetch(`${serve.url}/resources`, {
      headers: { authorization: "Bearer tok-alice-3e9a" },
    });
    const body = (await response.json()) as { resources: any[]; resourceTemplates: any[] };
    const templates = body.resourceTemplates.map((t) => `${t.plugin} ${t.uriTemplate}`);
    expect(templates).toEqual(
      expect.arrayContaining([
        "private-repo private-repo://documents/{owner}/{collection}/{id}",
        "private-repo private-repo://collections/{owner}/{collection}",
        "rag rag://documents/{collection}/{id}",
        "rag rag://collections/{collection}",
        "guia guia://guides/{subject}",
        "guia guia://guides/{subject}/sections/{section}",
      ]),
    );
    expect(body.resources.map((r) => r.uri)).toContain("guia://guides");
  });

  it("reads alice's document whole over MCP, as added; bob gets MCP's resource error and nothing of it", async () => {
    const alice = await connect("tok-alice-3e9a");
    const list = await alice.readResource({ uri: "private-repo://collections/alice/unpublished" });
    const listed = JSON.parse((list.contents[0] as { text: string }).text);
    expect(listed.documents.map((d: { uri: string }) => d.uri)).toEqual([DOC]);
    const { contents } = await alice.readResource({ uri: DOC });
    expect(contents).toEqual([{ uri: DOC, mimeType: "text/markdown", text: expect.any(String) }]);
    const text = (contents[0] as { text: string }).text;
    expect(text).toBe(ALICE_TEXT);
    await alice.close();

    const bob = await connect("tok-bob-5d20");
    for (const uri of [DOC, "private-repo://collections/alice/unpublished"]) {
      const refused = await bob.readResource({ uri }).then(
        () => undefined,
        (error: { code?: number; message?: string }) => error,
      );
      expect(refused).toMatchObject({
        code: -32602,
        message: expect.stringContaining(`No resource at ${uri}.`),
      });
      expect(JSON.stringify(refused)).not.toContain(SECRET);
    }
    await bob.close();
  });

  it("reads the same document on GET /resources?uri= for alice, 404 for bob", async () => {
    const alice = await read(DOC);
    expect(alice.status).toBe(200);
    expect(alice.body.contents[0].text).toBe(ALICE_TEXT);
    const bob = await read(DOC, "tok-bob-5d20");
    expect(bob.status).toBe(404);
    expect(bob.body.error.code).toBe("not_found");
    expect(JSON.stringify(bob.body)).not.toContain(SECRET);
  });

  it("reads a rag document of the built index and a teaching guide section", async () => {
    const rag = await read("rag://documents/default/tema1.txt");
    expect(rag.status).toBe(200);
    expect(rag.body.contents[0]).toMatchObject({
      mimeType: "text/plain",
      text: "El enfriamiento simulado acepta peores soluciones.",
    });
    const section = await read(`guia://guides/metaheuristicas/sections/${encodeURIComponent("evaluación")}`);
    expect(section.status).toBe(200);
    expect(JSON.parse(section.body.contents[0].text)).toMatchObject({
      subject: "metaheuristicas",
      key: "evaluación",
    });
  });

  it("notifies a subscribed client when `quiver rag index` adds a document from another process", async () => {
    const client = await connect("tok-alice-3e9a");
    const updated: string[] = [];
    client.setNotificationHandler("notifications/resources/updated", (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri: "rag://collections/default" });
    writeFileSync(
      join(project.dir, "material", "tema2.txt"),
      "La búsqueda tabú prohíbe movimientos recientes.",
    );
    const indexed = await runQuiver(["rag", "index", "material", "--index", "rag.db"], { cwd: project.dir });
    expect(indexed.code, indexed.stderr).toBe(0);
    for (let i = 0; i < 100 && updated.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(updated).toContain("rag://collections/default");
    const listed = await client.readResource({ uri: "rag://collections/default" });
    expect(JSON.parse(String((listed.contents[0] as { text: string }).text)).count).toBe(2);
    await client.close();
  }, 30_000);

  it("notifies alice's subscribed client when `quiver private-repo add` adds to her collection", async () => {
    const client = await connect("tok-alice-3e9a");
    const updated: string[] = [];
    client.setNotificationHandler("notifications/resources/updated", (n) => {
      updated.push(n.params.uri);
    });
    const uri = "private-repo://collections/alice/unpublished";
    await client.subscribeResource({ uri });
    // bob may not read alice's collection, so he may not hear when it changes either.
    const bob = await connect("tok-bob-5d20");
    await expect(bob.subscribeResource({ uri })).rejects.toMatchObject({ code: -32602 });
    await bob.close();
    mkdirSync(join(project.dir, "more-notes"));
    writeFileSync(join(project.dir, "more-notes", "followup.md"), "# Follow-up\n\nSix more responded.\n");
    const args = [
      "private-repo",
      "add",
      "more-notes",
      "--owner",
      "alice",
      "--collection",
      "unpublished",
      "--repo",
      "repo",
    ];
    const added = await runQuiver(args, { cwd: project.dir });
    expect(added.code, added.stderr).toBe(0);
    for (let i = 0; i < 100 && !updated.includes(uri); i++) await new Promise((r) => setTimeout(r, 100));
    expect(updated).toContain(uri);
    const listed = await client.readResource({ uri });
    expect(JSON.parse(String((listed.contents[0] as { text: string }).text)).count).toBe(2);
    await client.close();
  }, 30_000);
});
