import { afterEach, describe, expect, it } from "vitest";
import { type Catalog, createCatalog } from "../src/index.js";
import { makeProbe } from "./fixtures.js";

let catalog: Catalog | undefined;
afterEach(async () => {
  await catalog?.close();
  catalog = undefined;
});

describe("tool aliases", () => {
  it("lists, describes, exports and calls a tool under its alias too", async () => {
    catalog = createCatalog({ env: {}, aliases: { old_probe: "probe" } });
    catalog.register(makeProbe().plugin);
    catalog.checkAliases();
    expect(catalog.list().map((t) => t.name)).toEqual(["probe", "old_probe"]);
    expect(catalog.list()[1]).toMatchObject({ name: "old_probe", plugin: "probe", available: true });
    expect(catalog.has("old_probe")).toBe(true);
    expect(catalog.describe("old_probe")).toMatchObject({ name: "old_probe", plugin: "probe" });
    expect(catalog.schemas("openai").map((s) => s.name)).toEqual(["probe", "old_probe"]);
    expect(catalog.export().tools.map((t) => t.name)).toEqual(["probe", "old_probe"]);
    const result = await catalog.call("old_probe", { q: "hi" });
    expect(result).toMatchObject({ status: "success", data: { echo: "hi" } });
    const typo = await catalog.call("old_prob", { q: "hi" });
    expect(typo.suggestion).toContain('"old_probe"');
  });

  it("leaves an alias out while its tool is not registered, and checkAliases names it", () => {
    catalog = createCatalog({ env: {}, aliases: { search_web: "web_search_web" } });
    catalog.register(makeProbe().plugin);
    expect(catalog.list().map((t) => t.name)).toEqual(["probe"]);
    expect(catalog.has("search_web")).toBe(false);
    expect(() => catalog!.checkAliases()).toThrow(
      'Alias "search_web" stands for "web_search_web", which is not a registered tool.',
    );
  });

  it("refuses a plugin whose tool has an alias's name", () => {
    catalog = createCatalog({ env: {}, aliases: { probe: "other_tool" } });
    expect(() => catalog!.register(makeProbe().plugin)).toThrow(
      'Plugin "probe" has a tool named "probe", which is also an alias (for "other_tool")',
    );
    expect(catalog.plugins()).toEqual([]);
  });

  it("refuses aliases of aliases, of themselves and with invalid names at creation", () => {
    expect(() => createCatalog({ aliases: { a_b: "c_d", c_d: "probe" } })).toThrow(/another alias/);
    expect(() => createCatalog({ aliases: { a_b: "a_b" } })).toThrow(/stands for itself/);
    expect(() => createCatalog({ aliases: { "bad name": "probe" } })).toThrow(/1-64 letters/);
  });
});
