import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { type Catalog, type CatalogResourceChange, createCatalog, definePlugin } from "../src/index.js";

/** A plugin whose resources change when the test emits on its shelf; counts its watchers. */
const shelfPlugin = (id = "shelf") => {
  const shelf = new EventEmitter();
  const state = { setups: 0, watching: 0 };
  const plugin = definePlugin({
    id,
    version: "1.0.0",
    tools: [],
    setup: () => {
      state.setups++;
      return { shelf };
    },
    resources: [{ uri: `${id}://books`, name: "books", read: () => [{ uri: `${id}://books`, text: "[]" }] }],
    watchResources: (changed, { resources }) => {
      state.watching++;
      const onBook = (uri?: string) => changed(uri ? { uri } : undefined);
      resources.shelf.on("book", onBook);
      return () => {
        state.watching--;
        resources.shelf.off("book", onBook);
      };
    },
  });
  return { plugin, shelf, state };
};

const open: Catalog[] = [];
const catalog = () => {
  const c = createCatalog({ env: {} });
  open.push(c);
  return c;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
const settle = () => new Promise((r) => setTimeout(r, 10));

describe("catalog.onResourceChange", () => {
  it("watches only while someone listens, after the plugin's setup, and tells whose change it was", async () => {
    const c = catalog();
    const { plugin, shelf, state } = shelfPlugin();
    c.register(plugin);
    expect(state.setups).toBe(0);
    const heard: CatalogResourceChange[] = [];
    const stop = c.onResourceChange((change) => heard.push(change));
    await settle();
    expect(state).toEqual({ setups: 1, watching: 1 });
    shelf.emit("book", "shelf://books/1");
    shelf.emit("book");
    expect(heard).toEqual([{ plugin: "shelf", uri: "shelf://books/1" }, { plugin: "shelf" }]);
    stop();
    await settle();
    expect(state.watching).toBe(0);
    shelf.emit("book");
    expect(heard).toHaveLength(2);
  });

  it("watches a plugin registered later, keeps other listeners when one throws, and stops on close", async () => {
    const c = catalog();
    const heard: string[] = [];
    c.onResourceChange(() => {
      throw new Error("a broken listener");
    });
    c.onResourceChange((change) => heard.push(change.plugin));
    const late = shelfPlugin("late");
    c.register(late.plugin);
    await settle();
    late.shelf.emit("book");
    expect(heard).toEqual(["late"]);
    await c.close();
    expect(late.state.watching).toBe(0);
  });
});
