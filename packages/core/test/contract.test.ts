import { Redacted } from "effect";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  definePlugin,
  defineTool,
  defineToolWith,
  fail,
  partial,
  secret,
  setting,
} from "../src/index.js";
import { makeProbe } from "./fixtures.js";

describe("confirmation for destructive tools", () => {
  const deleted: string[] = [];
  const remove = defineTool({
    name: "delete_note",
    description: "Deletes a note. Use only when the user asked to delete it.",
    category: "private_repository",
    input: z.object({ id: z.string().describe("Note id") }),
    output: z.object({ deleted: z.string() }),
    annotations: { destructive: true },
    preview: ({ id }) => ({ willDelete: id }),
    run: ({ id }) => {
      deleted.push(id);
      return { deleted: id };
    },
  });
  const plugin = definePlugin({ specificationVersion: "v1", id: "notes", version: "1.0.0", tools: [remove] });

  it("previews first, runs only with the token, and the token is single-use and bound to the input", async () => {
    const catalog = createCatalog();
    catalog.register(plugin);
    const preview = await catalog.call("delete_note", { id: "n1" }, { session: { principal: "alice" } });
    expect(preview.status).toBe("partial");
    expect(preview.data).toEqual({ willDelete: "n1" });
    expect(deleted).toEqual([]);
    const token = preview.confirmation!.token;

    const otherInput = await catalog.call(
      "delete_note",
      { id: "n2", confirmation_token: token },
      { session: { principal: "alice" } },
    );
    expect(otherInput.status).toBe("partial");
    expect(otherInput.message).toMatch(/invalid/);
    expect(deleted).toEqual([]);

    const again = await catalog.call("delete_note", { id: "n1" }, { session: { principal: "alice" } });
    const done = await catalog.call(
      "delete_note",
      { id: "n1", confirmation_token: again.confirmation!.token },
      { session: { principal: "alice" } },
    );
    expect(done.status).toBe("success");
    expect(deleted).toEqual(["n1"]);

    const replay = await catalog.call(
      "delete_note",
      { id: "n1", confirmation_token: again.confirmation!.token },
      { session: { principal: "alice" } },
    );
    expect(replay.status).toBe("partial");
    expect(deleted).toEqual(["n1"]);
    expect(catalog.describe("delete_note")?.inputSchema).toMatchObject({
      properties: { confirmation_token: { type: "string" } },
    });
    await catalog.close();
  });

  it("a token presented by another principal is refused and stays usable by its owner", async () => {
    const catalog = createCatalog();
    catalog.register(plugin);
    const alice = { session: { principal: "alice" } };
    const preview = await catalog.call("delete_note", { id: "n7" }, alice);
    const token = preview.confirmation!.token;
    const bob = await catalog.call(
      "delete_note",
      { id: "n7", confirmation_token: token },
      { session: { principal: "bob" } },
    );
    expect(bob.status).toBe("partial");
    expect(deleted).not.toContain("n7");
    const done = await catalog.call("delete_note", { id: "n7", confirmation_token: token }, alice);
    expect(done.status).toBe("success");
    expect(deleted).toContain("n7");
  });

  it("a token issued to one principal does not work for another", async () => {
    const catalog = createCatalog();
    catalog.register(plugin);
    const preview = await catalog.call("delete_note", { id: "n9" }, { session: { principal: "alice" } });
    const stolen = await catalog.call(
      "delete_note",
      { id: "n9", confirmation_token: preview.confirmation!.token },
      { session: { principal: "mallory" } },
    );
    expect(stolen.status).toBe("partial");
    expect(deleted).not.toContain("n9");
    await catalog.close();
  });
});

describe("plugin settings", () => {
  const search = defineToolWith<{ apiKey: Redacted.Redacted<string>; model: string }>()({
    name: "web_search",
    description: "Searches the web.",
    category: "web_search",
    input: z.object({ query: z.string().describe("What to search for") }),
    output: z.object({ answer: z.string() }),
    run: ({ query }, ctx) => {
      if (query === "leak")
        throw fail.upstream(`request failed with key ${Redacted.value(ctx.config.apiKey)}`);
      if (query === "url")
        throw fail.upstream("GET https://api.test/search?q=x&access_token=upstream-session-42 failed");
      return { answer: `${ctx.config.model}:${query}` };
    },
  });
  const plugin = definePlugin({
    specificationVersion: "v1",
    id: "web",
    version: "1.0.0",
    config: z.object({
      apiKey: secret({ env: "WEB_API_KEY" }),
      model: setting(z.string().default("sonar"), { env: "WEB_MODEL" }),
    }),
    tools: [search],
  });

  it("a missing required variable leaves the plugin listed but unconfigured, naming the variable", async () => {
    const catalog = createCatalog({ env: {} });
    const info = catalog.register(plugin);
    expect(info.status).toBe("unconfigured");
    expect(info.missing).toEqual(["WEB_API_KEY"]);
    expect(catalog.list()[0]).toMatchObject({ name: "web_search", available: false });
    const result = await catalog.call("web_search", { query: "x" });
    expect(result.status).toBe("unavailable");
    expect(result.message).toContain("WEB_API_KEY");
    expect(result.guidance).toBeTruthy();
    await catalog.close();
  });

  it("reads variables, lets options win, and redacts the secret from every message", async () => {
    const catalog = createCatalog({ env: { WEB_API_KEY: "sk-very-secret-123", WEB_MODEL: "env-model" } });
    catalog.register(plugin, { model: "opt-model" });
    const ok = await catalog.call("web_search", { query: "q" });
    expect(ok.data).toEqual({ answer: "opt-model:q" });
    const leaked = await catalog.call("web_search", { query: "leak" });
    expect(JSON.stringify(leaked)).not.toContain("sk-very-secret-123");
    expect(leaked.message).toContain("[REDACTED]");
    await catalog.close();
  });

  it("masks a credential-looking URL parameter in a message, as the HTTP client's redactor does", async () => {
    const catalog = createCatalog({ env: { WEB_API_KEY: "sk-very-secret-123" } });
    catalog.register(plugin);
    const result = await catalog.call("web_search", { query: "url" });
    expect(result.message).not.toContain("upstream-session-42");
    expect(result.message).toContain("?q=x&access_token=[REDACTED]");
    await catalog.close();
  });
});

describe("catalog", () => {
  it("prefixes a clashing tool name with its plugin id and notifies listeners", async () => {
    const a = makeProbe();
    const b = makeProbe();
    const other = definePlugin({ ...b.plugin, id: "other" });
    const catalog = createCatalog();
    let changes = 0;
    catalog.onChange(() => changes++);
    catalog.register(a.plugin);
    catalog.register(other);
    expect(catalog.list().map((t) => t.name)).toEqual(["probe", "other_probe"]);
    expect((await catalog.call("other_probe", { q: "z" })).status).toBe("success");
    catalog.unregister("other");
    expect(catalog.list().map((t) => t.name)).toEqual(["probe"]);
    expect(changes).toBe(3);
    await catalog.close();
  });

  it("exports tools with schemas, categories and capabilities; injected fields are hidden", async () => {
    const { plugin } = makeProbe();
    const catalog = createCatalog();
    catalog.register(plugin);
    const exported = catalog.export();
    expect(exported.categories).toEqual(["computational_service"]);
    const tool = exported.tools[0]!;
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(["q", "n"]);
    expect(tool.examples).toHaveLength(1);
    for (const target of ["mcp", "openai", "anthropic", "gemini"] as const) {
      expect(catalog.schemas(target)[0]?.name).toBe("probe");
    }
    await catalog.close();
  });

  it("default-mode injected fields stay visible to the model in every target; override ones are hidden", async () => {
    const { plugin } = makeProbe({}, undefined, {
      n: { from: "n", mode: "override" },
      who: { from: "principal", mode: "default" },
    });
    const catalog = createCatalog();
    catalog.register(plugin);
    for (const target of ["mcp", "openai", "anthropic", "gemini"] as const) {
      const properties = (catalog.schemas(target)[0]!.parameters as { properties: object }).properties;
      expect(Object.keys(properties), target).toEqual(["q", "who"]);
    }
    await catalog.close();
  });

  it("returns partial outcomes with their message", async () => {
    const tool = defineTool({
      name: "half",
      description: "Returns half the data.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ items: z.array(z.number()) }),
      run: () => partial({ items: [1] }, "Only one of two sources answered."),
    });
    const catalog = createCatalog();
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "half", version: "1.0.0", tools: [tool] }),
    );
    const result = await catalog.call("half", {});
    expect(result).toMatchObject({
      status: "partial",
      message: "Only one of two sources answered.",
      data: { items: [1] },
    });
    await catalog.close();
  });

  it("rejects output that does not match the tool's schema as internal", async () => {
    const tool = defineTool({
      name: "liar",
      description: "Returns the wrong shape.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ n: z.number() }),
      run: () => ({ n: "not a number" }) as never,
    });
    const catalog = createCatalog();
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "liar", version: "1.0.0", tools: [tool] }),
    );
    const result = await catalog.call("liar", {});
    expect(result.error?.kind).toBe("internal");
    expect(result.message).toMatch(/schema/);
    await catalog.close();
  });

  it("rejects invalid tool names and duplicate tools at definition time", () => {
    expect(() =>
      defineTool({
        name: "bad name!",
        description: "x",
        category: "x",
        input: z.object({}),
        output: z.object({}),
        run: () => ({}),
      }),
    ).toThrow(/must match/);
    const { plugin } = makeProbe();
    expect(() => definePlugin({ ...plugin, id: "dup", tools: [...plugin.tools, ...plugin.tools] })).toThrow(
      /twice/,
    );
  });
});

describe("schema export problems stay per tool", () => {
  it("leaves a tool out of one provider's schemas instead of failing the whole catalog", async () => {
    const loose = defineTool({
      name: "loose",
      description: "Takes any payload; cannot be expressed in OpenAI strict mode.",
      category: "computational_service",
      input: z.object({ payload: z.unknown().describe("Anything") }),
      output: z.object({}),
      run: () => ({}),
    });
    const { plugin } = makeProbe();
    const catalog = createCatalog();
    catalog.register(plugin);
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "loose", version: "1.0.0", tools: [loose] }),
    );
    expect(catalog.schemas("mcp").map((s) => s.name)).toEqual(["probe", "loose"]);
    expect(catalog.schemas("openai").map((s) => s.name)).toEqual(["probe"]);
    expect(catalog.schemaErrors("openai")).toEqual([
      { tool: "loose", message: expect.stringContaining("payload") },
    ]);
    expect(catalog.describe("loose", "openai")?.schemaError).toBeTruthy();
    await catalog.close();
  });

  it("unregister releases the plugin's resources", async () => {
    let disposed = 0;
    const { plugin } = makeProbe();
    const catalog = createCatalog();
    catalog.register(definePlugin({ ...plugin, dispose: () => void disposed++ }));
    catalog.unregister("probe");
    await vi.waitFor(() => expect(disposed).toBe(1));
    await catalog.close();
  });
});
