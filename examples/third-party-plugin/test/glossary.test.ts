import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createCatalog } from "@quiver/core";
import {
  describePluginConformance,
  describePluginPackage,
  runPluginCommand,
  seedPluginDemo,
} from "@quiver/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGlossaryPlugin } from "../src/index.js";

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "glossary-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => rm(join(dir, "glossary.jsonl"), { force: true }));

const seedFile = async () => {
  file = join(dir, "glossary.jsonl");
  await writeFile(
    file,
    `${JSON.stringify({ term: "RAG", definition: "Retrieval-augmented generation." })}\n`,
  );
  return file;
};

describePluginPackage({ packageDir: new URL("..", import.meta.url), index: () => import("../src/index.js") });
describePluginConformance(createGlossaryPlugin(), { options: async () => ({ file: await seedFile() }) });

describe("glossary_lookup_term", () => {
  it("answers a definition whatever the case, and the closest terms for a missing one", async () => {
    const catalog = createCatalog({ env: {} });
    catalog.register(createGlossaryPlugin({ file: await seedFile() }));
    const hit = await catalog.call("glossary_lookup_term", { term: "rag" });
    expect(hit).toMatchObject({
      status: "success",
      data: { term: "RAG", definition: "Retrieval-augmented generation." },
    });
    const miss = await catalog.call("glossary_lookup_term", { term: "RAF" });
    expect(miss).toMatchObject({ status: "error", error: { kind: "invalid_input" } });
    expect(miss.error?.message).toMatch(/no term "RAF".*Did you mean: RAG/);
    await catalog.close();
  });

  it("sees terms written to the file while it runs, and stops watching when the catalog closes", async () => {
    const catalog = createCatalog({ env: {} });
    catalog.register(createGlossaryPlugin({ file: await seedFile() }));
    expect((await catalog.call("glossary_lookup_term", { term: "MCP" })).status).toBe("error");
    await writeFile(file, `${JSON.stringify({ term: "MCP", definition: "Model Context Protocol." })}\n`, {
      flag: "a",
    });
    let status = "error";
    for (let i = 0; i < 50 && status !== "success"; i++) {
      await sleep(20); // fs.watch reports the change asynchronously
      status = (await catalog.call("glossary_lookup_term", { term: "MCP" })).status;
    }
    expect(status).toBe("success");
    await catalog.close();
  });

  it("reads its file from GLOSSARY_FILE when no option names it", async () => {
    const catalog = createCatalog({ env: { GLOSSARY_FILE: await seedFile() } });
    catalog.register(createGlossaryPlugin());
    expect((await catalog.call("glossary_lookup_term", { term: "RAG" })).status).toBe("success");
    await catalog.close();
  });
});

describe("quiver glossary add", () => {
  it("appends a term with its source, refuses a known term without --replace", async () => {
    await seedFile();
    const plugin = createGlossaryPlugin({ file });
    const run = await runPluginCommand(plugin, "add", {
      args: ["MCP", "Model", "Context", "Protocol."],
      flags: { source: "https://modelcontextprotocol.io" },
    });
    expect(run.exitCode).toBe(0);
    expect(run.lines).toEqual([`added "MCP" in ${file}`]);
    const lines = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({
      term: "MCP",
      definition: "Model Context Protocol.",
      source: "https://modelcontextprotocol.io",
    });
    await expect(runPluginCommand(plugin, "add", { args: ["rag", "something else"] })).rejects.toMatchObject({
      name: "CommandUsageError",
      message: expect.stringContaining('already defines "RAG"'),
      hint: expect.stringContaining("--replace"),
    });
    const replaced = await runPluginCommand(plugin, "add", {
      args: ["RAG", "New."],
      flags: { replace: true },
      json: true,
    });
    expect(replaced.json).toEqual([{ added: { term: "RAG", definition: "New." }, file }]);
    const catalog = createCatalog({ env: {} });
    catalog.register(createGlossaryPlugin({ file }));
    expect(await catalog.call("glossary_lookup_term", { term: "RAG" })).toMatchObject({
      data: { definition: "New." },
    });
    await catalog.close();
  });
});

describe("demo", () => {
  it("copies the shipped glossary once, reuses it on the next start, and serves it", async () => {
    const cacheDir = join(dir, "demo-cache");
    const first = await seedPluginDemo(createGlossaryPlugin(), { cacheDir });
    expect(first.message).toMatch(/^glossary: 8 demo terms copied to /);
    const second = await seedPluginDemo(createGlossaryPlugin(), { cacheDir });
    expect(second.message).toMatch(/reused from/);
    const catalog = createCatalog({ env: {} });
    catalog.register(createGlossaryPlugin(), second.options);
    expect(await catalog.call("glossary_lookup_term", { term: "envelope" })).toMatchObject({
      status: "success",
    });
    await catalog.close();
  });
});
