import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { q7z6m3 } from "../../../packages/plugins/alphafold/test/support/afdb-emulator.js";
import {
  AFDB_STRUCTURE,
  ALICE_DOC,
  ALICE_TEXT,
  FDA_LABEL,
  RAG_DOC,
  RAG_TEXT,
  type RealPluginsHost,
  startRealPluginsHost,
} from "./real-plugins-host.js";

// The MCP SDK v2 client in the 2026-07-28 era (a server per request, over Streamable HTTP) on `quiver serve`
// with the real plugins against their emulators: it lists their resources, templates and prompts, reads a
// resource of five plugins, gets two plugins' prompts and completes prompt arguments and template variables
// from real data (openFDA's classes, the stored guides, the rag index, the library ids alice resolved).
let host: RealPluginsHost;
const clients: Client[] = [];

beforeAll(async () => {
  host = await startRealPluginsHost();
}, 120_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await host?.close();
});

/** A 2026-07-28 client with a principal's token. */
const connect = async (token: string) => {
  const client = new Client(
    { name: "real-plugins-v2", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${host.serve.url}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
};
const alice = () => connect("tok-alice-7c1f");
const textOf = (contents: ReadonlyArray<unknown>) => (contents[0] as { text: string }).text;

describe("MCP SDK v2 (2026-07-28) on the real plugins", () => {
  it("negotiates 2026-07-28 and lists the plugins' resources, templates and prompts", async () => {
    const client = await alice();
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["guia://guides"]));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        "fda://label/{set_id}",
        "alphafold://structures/{accession}/{format}",
        "guia://guides/{subject}",
        "guia://guides/{subject}/sections/{section}",
        "rag://documents/{collection}/{id}",
        "private-repo://documents/{owner}/{collection}/{id}",
      ]),
    );
    const { prompts } = await client.listPrompts();
    const byName = new Map(prompts.map((p) => [p.name, p]));
    expect(byName.get("check_hypothesis")).toMatchObject({
      title: "Check a hypothesis against approved drugs",
      arguments: [
        { name: "hypothesis", required: true, description: expect.any(String) },
        { name: "condition", description: expect.any(String) },
        { name: "pharmacologic_class", description: expect.any(String) },
      ],
    });
    expect(byName.get("review_session")?.arguments?.map((a) => a.name)).toEqual([
      "topic",
      "question_type",
      "difficulty",
    ]);
    expect(byName.get("answer_with_docs")?.arguments?.map((a) => a.name)).toEqual(["library_id", "question"]);
  });

  it("reads an fda label, a guia guide, an alphafold structure, a rag and a private-repo document", async () => {
    const client = await alice();
    const label = await client.readResource({ uri: FDA_LABEL });
    expect(label.contents[0]).toMatchObject({ uri: FDA_LABEL, mimeType: "application/json" });
    const record = JSON.parse(textOf(label.contents));
    expect(record.set_id).toBe("27f15fac-7d98-4114-a2ec-92494a91da98");
    expect(record.openfda.brand_name).toEqual(["RYBELSUS"]);

    const guide = JSON.parse(
      textOf((await client.readResource({ uri: "guia://guides/metaheuristicas" })).contents),
    );
    expect(guide).toMatchObject({
      subject: "metaheuristicas",
      asignatura: expect.stringContaining("Metaheur"),
    });

    const structure = await client.readResource({ uri: AFDB_STRUCTURE });
    expect(structure.contents[0]).toMatchObject({ uri: AFDB_STRUCTURE, mimeType: "chemical/x-pdb" });
    // The model file whole, as AlphaFold DB (here its emulator) served it.
    expect(textOf(structure.contents)).toBe(q7z6m3().pdb);

    expect(textOf((await client.readResource({ uri: RAG_DOC })).contents)).toBe(RAG_TEXT);
    expect(textOf((await client.readResource({ uri: ALICE_DOC })).contents)).toBe(ALICE_TEXT);
    // Bob gets MCP's resource error and nothing of alice's document.
    const bob = await connect("tok-bob-2e84");
    await expect(bob.readResource({ uri: ALICE_DOC })).rejects.toMatchObject({ code: -32602 });
  });

  it("gets testgen's review_session and fda's check_hypothesis prompts", async () => {
    const client = await alice();
    const review = await client.getPrompt({
      name: "review_session",
      arguments: { topic: "enfriamiento simulado", difficulty: "hard" },
    });
    expect(review.messages[0]).toMatchObject({
      role: "user",
      content: {
        type: "text",
        text: expect.stringContaining('testgen_generate_test with topic "enfriamiento simulado"'),
      },
    });
    const hypothesis = await client.getPrompt({
      name: "check_hypothesis",
      arguments: {
        hypothesis: "GLP-1 receptor agonists lower HbA1c in type 2 diabetes",
        condition: "type 2 diabetes",
      },
    });
    const text = (hypothesis.messages[0]!.content as { text: string }).text;
    expect(text).toContain('fda_search_drugs with search_criteria {"indication":"type 2 diabetes"}');
    expect(text).toContain("fda://label/{set_id}");
    await expect(client.getPrompt({ name: "check_hypothesis", arguments: {} })).rejects.toThrow(
      /needs hypothesis/,
    );
  });

  it("completes prompt arguments and template variables from real data", async () => {
    const client = await alice();
    const complete = async (
      ref: Parameters<Client["complete"]>[0]["ref"],
      name: string,
      value: string,
      context?: Record<string, string>,
    ) =>
      (
        await client.complete({
          ref,
          argument: { name, value },
          ...(context ? { context: { arguments: context } } : {}),
        })
      ).completion.values;
    const hypothesis = { type: "ref/prompt", name: "check_hypothesis" } as const;
    // openFDA's pharmacologic classes of approved drugs (the emulator's Drugs@FDA records).
    expect(await complete(hypothesis, "pharmacologic_class", "glp")).toEqual(["GLP-1 Receptor Agonist"]);
    expect(await complete(hypothesis, "pharmacologic_class", "insulino")).toEqual([
      "Glucose-dependent Insulinotropic Polypeptide Receptor Agonist",
    ]);
    // The stored guides, and a section of the subject already chosen (context.arguments).
    const guide = { type: "ref/resource", uri: "guia://guides/{subject}" } as const;
    expect(await complete(guide, "subject", "meta")).toEqual(["metaheuristicas"]);
    const section = { type: "ref/resource", uri: "guia://guides/{subject}/sections/{section}" } as const;
    const metaSections = await complete(section, "section", "", { subject: "metaheuristicas" });
    expect(metaSections).toContain("información_adicional");
    expect(metaSections).not.toContain("competencias");
    expect(await complete(section, "section", "comp", { subject: "modelos_avanzados_computacion" })).toEqual([
      "competencias",
      "competencias.general_competences",
    ]);
    // The collections of the rag index `quiver rag index` built.
    const rag = { type: "ref/resource", uri: "rag://documents/{collection}/{id}" } as const;
    expect(await complete(rag, "collection", "")).toEqual(["default"]);
  });

  it("completes context7's library_id from the ids alice resolved, not for bob", async () => {
    const client = await alice();
    const docs = { type: "ref/prompt", name: "answer_with_docs" } as const;
    const ids = async (c: Client) =>
      (await c.complete({ ref: docs, argument: { name: "library_id", value: "/" } })).completion.values;
    expect(await ids(client)).toEqual([]);
    const resolved = await client.callTool({
      name: "context7_resolve_library_id",
      arguments: { library_name: "React", query: "state hooks" },
    });
    expect(resolved.isError ?? false).toBe(false);
    // A later request, on another server instance of the 2026-07-28 era: the ids are the host's, per principal.
    expect((await ids(client))[0]).toBe("/facebook/react");
    expect(await ids(await connect("tok-bob-2e84"))).toEqual([]);
    const got = await client.getPrompt({
      name: "answer_with_docs",
      arguments: { library_id: "/facebook/react", question: "useState hook" },
    });
    expect((got.messages[0]!.content as { text: string }).text).toContain(
      'context7_get_library_docs with library_id "/facebook/react"',
    );
  });
});
