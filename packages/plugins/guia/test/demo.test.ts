import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedPluginDemo, useCatalog } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuiaPlugin } from "../src/index.js";

const makeCatalog = useCatalog({ env: {} });
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "guia-demo-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("the demo step (the real guides shipped in demo/, through the importer)", () => {
  it("imports the two UGR guides into a demo folder store, then reuses it, and the tool answers from it", async () => {
    const cacheDir = join(tmp, "cache");
    const first = await seedPluginDemo(createGuiaPlugin(), { cacheDir });
    const guidesDir = join(cacheDir, "guides");
    expect(first.options).toEqual({ store: "folder", guidesDir, seed: false });
    expect(first.message).toBe(
      `2 teaching guides imported into ${guidesDir} (metaheuristicas, modelos_avanzados_computacion)`,
    );
    expect((await readdir(guidesDir)).sort()).toEqual([
      "metaheuristicas.json",
      "modelos_avanzados_computacion.json",
    ]);

    const again = await seedPluginDemo(createGuiaPlugin(), { cacheDir });
    expect(again.options).toEqual(first.options);
    expect(again.message).toMatch(/^2 teaching guides reused from /);

    const catalog = makeCatalog();
    catalog.register(createGuiaPlugin(), again.options);
    const r = await catalog.call(
      "guia_get_guide",
      { key: "evaluación" },
      { session: { values: { asignatura: "metaheuristicas" } } },
    );
    expect(r.status, r.message).toBe("success");
    expect(r.data).toMatchObject({ type: "section", subject: "metaheuristicas", key: "evaluación" });
    expect(JSON.stringify(r.data)).toMatch(/evaluación_ordinaria/);
    expect((await catalog.health("guia")).message).toMatch(/^folder store: 2 guides/);
  });

  it("is skipped when the user chose a store", () => {
    expect(createGuiaPlugin().demo?.skipWhenSet).toEqual(["GUIA_DIR", "GUIA_STORE", "MONGODB_URI"]);
  });
});
