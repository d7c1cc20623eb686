import { existsSync } from "node:fs";
import { join } from "node:path";
import { analyze } from "@quiver/search/analyzer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { indexTools } from "../src/find/rank-tools.js";
import { tokenize } from "../src/find/tokenize.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { HOST_DIR, makeProject, type Project } from "./helpers.js";

// Every first-party plugin the host app depends on and that is built.
const FIRST_PARTY = ["context7", "fda", "guia", "perplexity", "testgen", "rag", "private-repo", "alphafold"]
  .map((id) => `@quiver/plugin-${id}`)
  .filter((pkg) => existsSync(join(HOST_DIR, "node_modules", pkg, "dist", "index.js")));

let project: Project;
let host: Host;
beforeAll(async () => {
  project = makeProject({ workspace: FIRST_PARTY, fixtures: ["echo"] });
  host = await createHost(await resolveSettings({ cwd: project.dir }, {}));
});
afterAll(async () => {
  await host?.close();
  project?.cleanup();
});

describe("tokenize", () => {
  it("uses @quiver/search's analyzer: splits names and hyphens, drops stop words, stems, folds search verbs", () => {
    expect(tokenize("Find FDA-approved kinase inhibitors")).toEqual([
      "search",
      "fda",
      "approv",
      "kinas",
      "inhibitor",
    ]);
    expect(tokenize("fda_search_drugs")).toEqual(["fda", "search", "drug"]);
    expect(tokenize("How many studies?")).toEqual(["count", "studi"]);
    expect(tokenize("looking up, querying and retrieving")).toEqual(["search", "up", "search", "search"]);
    expect(tokenize("Guía docente")).toEqual(["guia", "docent"]);
    // The index's own terms: a tool description and a document meet on the same words.
    expect(tokenize("the teaching guides")).toEqual(analyze("the teaching guides"));
  });
});

describe("ranking the catalog's tools for a need", () => {
  const names = (need: string) => host.catalog.call("quiver_find_tools", { need, limit: 3 });

  it("puts the FDA search first for FDA-approved kinase inhibitors", async () => {
    const r = await names("find FDA-approved kinase inhibitors");
    expect(r.status).toBe("success");
    const tools = (r.data as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools[0]).toBe("fda_search_drugs");
    expect(r.message).toMatch(/best first: fda_search_drugs/);
  });

  it("ranks other needs to the tool that serves them", () => {
    const finder = indexTools(host.catalog.export().tools);
    expect(finder.rank("how many drugs does each sponsor have")[0]?.name).toBe("fda_count_drugs");
    expect(finder.rank("documentation for the react library")[0]?.name).toMatch(/^context7_/);
    expect(finder.rank("search the web for recent news")[0]?.name).toBe("perplexity_search_web");
    expect(finder.rank("teaching guide of a university subject")[0]?.name).toBe("guia_get_guide");
    expect(finder.rank("review questions for students")[0]?.name).toBe("testgen_generate_test");
    if (host.catalog.has("alphafold_predict_structure"))
      expect(finder.rank("3D structure of a protein")[0]?.name).toBe("alphafold_predict_structure");
    if (host.catalog.has("private_repo_search"))
      expect(finder.rank("search my private papers repository")[0]?.name).toBe("private_repo_search");
    if (host.catalog.has("rag_search"))
      expect(finder.rank("course material lecture notes")[0]?.name).toBe("rag_search");
    if (host.catalog.has("private_repo_search"))
      expect(finder.rank("search my private papers repository")[0]?.name).toBe("private_repo_search");
    if (host.catalog.has("rag_search"))
      expect(finder.rank("course material lecture notes")[0]?.name).toBe("rag_search");
  });

  it("filters by category, marks unconfigured tools, and leaves out tools matching nothing", () => {
    const finder = indexTools(host.catalog.export().tools);
    expect(finder.rank("search", { category: "web_search" }).map((t) => t.name)).toEqual([
      "perplexity_search_web",
      "perplexity_deep_research",
    ]);
    expect(finder.rank("web search")[0]).toMatchObject({ name: "perplexity_search_web", available: false });
    expect(finder.rank("zzzz qqqq")).toEqual([]);
  });

  it("is offered to models as a tool with a schema and an example", () => {
    const d = host.catalog.describe("quiver_find_tools", "mcp")!;
    expect(d.category).toBe("discovery");
    expect(d.inputSchema).toMatchObject({ type: "object", required: ["need"] });
    expect(d.examples[0]?.input).toEqual({ need: "find FDA-approved kinase inhibitors" });
    expect(d.annotations).toMatchObject({ readOnly: true });
  });

  it("sees plugins registered later (the index follows catalog changes)", async () => {
    const before = await names("echo text back");
    expect((before.data as { tools: { name: string }[] }).tools[0]?.name).toBe("echo_text");
    host.catalog.unregister("echo");
    const after = await names("echo text back");
    expect((after.data as { tools: { name: string }[] }).tools.map((t) => t.name)).not.toContain("echo_text");
  });

  it("answers an empty result with a message, not an error", async () => {
    const r = await names("qqqq zzzz");
    expect(r.status).toBe("success");
    expect(r.message).toMatch(/No tool matches/);
  });
});
