import { type Catalog, createCatalog, definePlugin, defineTool, outcome } from "@quiver/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { redisStore } from "../src/index.js";
import { deleteUnder, keysUnder, REDIS_URL, redisReachable, uniquePrefix } from "./fixtures.js";

const up = await redisReachable();
if (!up) console.log(`skipped (result link tests): Redis is not reachable at ${REDIS_URL}`);

/** A structure file far over the tool's 2,000-character output budget. */
const MODEL = `HEADER    ESMFOLD PREDICTION\n${"ATOM      1  N   MET A   1      -8.901   4.127  -0.555  1.00 87.10           N\n".repeat(200)}END\n`;

const plugin = definePlugin({
  specificationVersion: "v1",
  id: "folds",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "fold",
      description: "Folds a sequence; answers the model as an embedded PDB file.",
      category: "computational_service",
      input: z.object({ sequence: z.string().describe("Amino acids") }),
      output: z.object({ residues: z.number() }),
      policy: { maxOutputChars: 2_000, retry: false },
      run: ({ sequence }) =>
        outcome(
          { residues: sequence.length },
          {
            content: [
              {
                type: "resource",
                resource: { uri: "esmfold://prediction.pdb", mimeType: "chemical/x-pdb", text: MODEL },
              },
            ],
          },
        ),
    }),
  ],
});

const catalogs: Catalog[] = [];
const prefixes: string[] = [];
const replica = (prefix: string) => {
  const catalog = createCatalog({ env: {}, store: redisStore({ url: REDIS_URL, prefix, log: () => {} }) });
  catalog.register(plugin);
  catalogs.push(catalog);
  return catalog;
};
afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  if (up) await Promise.all(prefixes.map((p) => deleteUnder(p)));
});

describe.skipIf(!up)("result links on the real Redis", () => {
  it("a link one replica answered is read whole on another, by its owner only", async () => {
    const prefix = uniquePrefix("links");
    prefixes.push(prefix);
    const a = replica(prefix);
    const b = replica(prefix);
    const result = await a.call("fold", { sequence: "MKTAYIAKQR" }, { session: { principal: "alice" } });
    const [link] = result.metadata.content ?? [];
    if (link?.type !== "resource_link") throw new Error(`no link in ${JSON.stringify(result)}`);
    expect(await keysUnder(`${prefix}store:result:`)).toHaveLength(1);
    const read = await b.readResource(link.uri, { session: { principal: "alice" } });
    expect(read).toEqual({ ok: true, value: [{ uri: link.uri, mimeType: "chemical/x-pdb", text: MODEL }] });
    const other = await b.readResource(link.uri, { session: { principal: "bob" } });
    expect(other.ok).toBe(false);
    expect(JSON.stringify(other)).not.toContain("ATOM");
  });
});
