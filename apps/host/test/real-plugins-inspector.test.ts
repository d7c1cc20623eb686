import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
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

// The MCP Inspector's own CLI (`npx @modelcontextprotocol/inspector --cli`, as users run it) on `quiver serve`
// with the real plugins against their emulators, over Streamable HTTP with alice's token: it lists their
// resources, templates and prompts, reads a resource of five plugins, and gets a prompt.
let host: RealPluginsHost;

beforeAll(async () => {
  host = await startRealPluginsHost();
}, 120_000);
afterAll(async () => {
  await host?.close();
});

/** Runs the Inspector's CLI against the host's `/mcp` as alice, with JSON output; its parsed `result`. */
const inspector = async (args: ReadonlyArray<string>) => {
  const launcher = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json");
  const bin = join(launcher, "..", "clients", "launcher", "build", "index.js");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      bin,
      "--cli",
      `${host.serve.url}/mcp`,
      "--transport",
      "http",
      "--header",
      "Authorization: Bearer tok-alice-7c1f",
      ...args,
      "--format",
      "json",
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return (JSON.parse(stdout) as { result: Record<string, any> }).result;
};
const read = async (uri: string) =>
  (await inspector(["--method", "resources/read", "--uri", uri])).contents as Array<Record<string, string>>;

describe("MCP Inspector's CLI on the real plugins", () => {
  it("lists the resources, the resource templates and the prompts", async () => {
    const listed = await inspector(["--method", "resources/list"]);
    expect(listed.resources.map((r: { uri: string }) => r.uri)).toContain("guia://guides");
    const templates = await inspector(["--method", "resources/templates/list"]);
    expect(templates.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        "fda://label/{set_id}",
        "alphafold://structures/{accession}/{format}",
        "guia://guides/{subject}",
        "rag://documents/{collection}/{id}",
        "private-repo://documents/{owner}/{collection}/{id}",
      ]),
    );
    const prompts = await inspector(["--method", "prompts/list"]);
    expect(prompts.prompts.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["check_hypothesis", "review_session", "answer_with_docs"]),
    );
  }, 60_000);

  it("reads an fda label, a guia guide, an alphafold structure, a rag and a private-repo document", async () => {
    const [label] = await read(FDA_LABEL);
    expect(label).toMatchObject({ uri: FDA_LABEL, mimeType: "application/json" });
    expect(JSON.parse(label!.text!).openfda.brand_name).toEqual(["RYBELSUS"]);
    const [guide] = await read("guia://guides/metaheuristicas");
    expect(JSON.parse(guide!.text!).subject).toBe("metaheuristicas");
    const [structure] = await read(AFDB_STRUCTURE);
    expect(structure).toMatchObject({ mimeType: "chemical/x-pdb", text: q7z6m3().pdb });
    expect((await read(RAG_DOC))[0]!.text).toBe(RAG_TEXT);
    expect((await read(ALICE_DOC))[0]!.text).toBe(ALICE_TEXT);
  }, 120_000);

  it("gets fda's check_hypothesis prompt", async () => {
    const got = await inspector([
      "--method",
      "prompts/get",
      "--prompt-name",
      "check_hypothesis",
      "--prompt-args",
      "hypothesis=GLP-1 agonism lowers HbA1c",
      "pharmacologic_class=GLP-1 Receptor Agonist",
    ]);
    expect(got.messages[0].content.text).toContain(
      'fda_search_drugs with search_criteria {"pharmacologic_class":"GLP-1 Receptor Agonist"}',
    );
  }, 60_000);
});
