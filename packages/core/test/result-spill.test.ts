import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Catalog,
  createCatalog,
  type DurationInput,
  definePlugin,
  defineTool,
  memoryDriver,
  outcome,
  type StoreDriver,
} from "../src/index.js";

/** A PDB-like artifact well over a 10,000-character budget (byte-identical checks need non-ASCII too). */
const BIG = `HEADER    PREDICTED MODEL Å\n${"ATOM      1  CA  ALA A   1      11.104  13.207   2.100  1.00 90.00           C\n".repeat(800)}END\n`;
const SMALL = "HEADER small\nEND\n";

const fold = defineTool({
  name: "fold",
  description: "Returns a structure file as an embedded resource.",
  category: "computational_service",
  input: z.object({ size: z.enum(["big", "small"]).describe("Which artifact") }),
  output: z.object({ residues: z.number() }),
  annotations: { readOnly: true, openWorld: true },
  policy: { maxOutputChars: 10_000, cache: false },
  run: ({ size }) =>
    outcome(
      { residues: 800 },
      {
        content: [
          {
            type: "resource",
            resource: {
              uri: `https://folds.test/model-${size}.pdb`,
              mimeType: "chemical/x-pdb",
              text: size === "big" ? BIG : SMALL,
            },
          },
        ],
      },
    ),
});
const plugin = definePlugin({ specificationVersion: "v1", id: "folds", version: "1.0.0", tools: [fold] });

const open: Catalog[] = [];
const catalogOn = (store: StoreDriver, resultTtl?: DurationInput) => {
  const catalog = createCatalog({ store, ...(resultTtl ? { resultTtl } : {}) });
  catalog.register(plugin);
  open.push(catalog);
  return catalog;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const alice = { session: { principal: "alice" } };
const bob = { session: { principal: "bob" } };

describe("artifacts over the output budget are spilled to result resources", () => {
  it("answers a resource_link (name, MIME type, size) and reads back the artifact byte for byte", async () => {
    const catalog = catalogOn(memoryDriver());
    const result = await catalog.call("fold", { size: "big" }, alice);
    expect(result.status).toBe("success");
    const [link] = result.metadata.content ?? [];
    expect(link).toMatchObject({
      type: "resource_link",
      name: "model-big.pdb",
      mimeType: "chemical/x-pdb",
      size: Buffer.byteLength(BIG, "utf8"),
    });
    expect(JSON.stringify(result)).not.toContain("ATOM");
    if (link?.type !== "resource_link") throw new Error("no link");
    expect(link.uri).toMatch(/^quiver:\/\/result\/[\w-]{24}\/model-big\.pdb$/);
    const read = await catalog.readResource(link.uri, alice);
    expect(read).toEqual({ ok: true, value: [{ uri: link.uri, mimeType: "chemical/x-pdb", text: BIG }] });
  });

  it("keeps an artifact within the budget embedded", async () => {
    const catalog = catalogOn(memoryDriver());
    const result = await catalog.call("fold", { size: "small" }, alice);
    expect(result.metadata.content).toEqual([
      {
        type: "resource",
        resource: { uri: "https://folds.test/model-small.pdb", mimeType: "chemical/x-pdb", text: SMALL },
      },
    ]);
  });

  it("never shows another principal's artifact, nor one read without a principal", async () => {
    const catalog = catalogOn(memoryDriver());
    const [link] = (await catalog.call("fold", { size: "big" }, alice)).metadata.content ?? [];
    if (link?.type !== "resource_link") throw new Error("no link");
    for (const who of [bob, {}]) {
      const read = await catalog.readResource(link.uri, who);
      expect(read).toEqual({ ok: false, kind: "not_found", message: `No resource at ${link.uri}.` });
    }
    const guessed = link.uri.replace(/result\/[\w-]+/, "result/AAAAAAAAAAAAAAAAAAAAAAAA");
    expect((await catalog.readResource(guessed, alice)).ok).toBe(false);
  });

  it("is read on another replica on the same store, until its time to live runs out", async () => {
    let now = 1_000;
    const store = memoryDriver({ now: () => now });
    const a = catalogOn(store, "10m");
    const b = catalogOn(store, "10m");
    const [link] = (await a.call("fold", { size: "big" }, alice)).metadata.content ?? [];
    if (link?.type !== "resource_link") throw new Error("no link");
    expect(link.description).toContain("10 min");
    const read = await b.readResource(link.uri, alice);
    expect(read.ok && read.value[0]).toMatchObject({ text: BIG });
    now += 10 * 60_000 + 1;
    expect((await b.readResource(link.uri, alice)).ok).toBe(false);
  });
});
