import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFolderGuideStore, type GuideStore } from "../src/index.js";
import { describeStoreContract } from "./store-contract.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "guia-store-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeStoreContract("folder store (on disk)", async () =>
  createFolderGuideStore({ dir: await mkdtemp(join(tmpdir(), "guia-contract-")), seed: false }),
);

describe("folder store", () => {
  it("serves the two shipped real guides by default", async () => {
    const store = createFolderGuideStore();
    const list = await store.list();
    expect(list.map((l) => l.subject).sort()).toEqual(["metaheuristicas", "modelos_avanzados_computacion"]);
    expect(list.find((l) => l.subject === "metaheuristicas")).toEqual({
      subject: "metaheuristicas",
      name: "Metaheurísticas",
      code: "296113E",
    });
  });

  it("the shipped guides are byte-for-byte the real ones (SOURCE.md sha256)", async () => {
    const { createHash } = await import("node:crypto");
    const { SEED_GUIDES_DIR } = await import("../src/index.js");
    const sha = async (f: string) =>
      createHash("sha256")
        .update(await readFile(join(SEED_GUIDES_DIR, f)))
        .digest("hex");
    expect(await sha("metaheuristicas.json")).toBe(
      "78a6c6428ae2a78cc2b2f4138ab96e356034471435ab05be95ca99f543654035",
    );
    expect(await sha("modelos_avanzados_computacion.json")).toBe(
      "c2e9d45030b2b695a897ece27d5f798dfeea5c867e032407caedded0fd4576bf",
    );
    expect(await readFile(join(SEED_GUIDES_DIR, "SOURCE.md"), "utf8")).toContain(
      "GabrielFranciscoSM/Chatbot_IA_Ceprud",
    );
  });

  it("reads guía_docente.json under a subject folder (the original's layout), and YAML", async () => {
    await mkdir(join(dir, "fisica"));
    await writeFile(
      join(dir, "fisica", "guía_docente.json"),
      JSON.stringify({ asignatura: "Guía docente de Física (111111A)", grado: "G" }),
    );
    await writeFile(join(dir, "quimica.yml"), "asignatura: Química\ngrado: G\n");
    const store = createFolderGuideStore({ dir, seed: false });
    expect((await store.list()).map((l) => l.subject).sort()).toEqual(["fisica", "quimica"]);
    expect((await store.get("fisica"))?.data.grado).toBe("G");
  });

  it("your guides win over the shipped ones with the same id, and changes on disk are seen", async () => {
    const file = join(dir, "metaheuristicas.json");
    await writeFile(file, JSON.stringify({ asignatura: "Metaheurísticas (local)", grado: "v1" }));
    const store = createFolderGuideStore({ dir });
    expect((await store.get("metaheuristicas"))?.data.grado).toBe("v1");
    await writeFile(file, JSON.stringify({ asignatura: "Metaheurísticas (local)", grado: "v2, longer" }));
    expect((await store.get("metaheuristicas"))?.data.grado).toBe("v2, longer");
  });

  it("put without a folder to write to fails clearly", async () => {
    const store = createFolderGuideStore();
    await expect(store.put({ subject: "x", data: { asignatura: "X", grado: "G" } })).rejects.toThrow(
      /GUIA_DIR/,
    );
  });

  it("invalid files in the folder are ignored, not fatal", async () => {
    await writeFile(join(dir, "broken.json"), "{ not json");
    await writeFile(join(dir, "ok.json"), JSON.stringify({ asignatura: "Ok", grado: "G" }));
    const store: GuideStore = createFolderGuideStore({ dir, seed: false });
    expect((await store.list()).map((l) => l.subject)).toEqual(["ok"]);
  });
});
