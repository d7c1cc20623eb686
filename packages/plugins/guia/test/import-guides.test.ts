import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFolderGuideStore, SEED_GUIDES_DIR } from "../src/index.js";
import { importGuides } from "../src/internal/import-guides.js";
import { openGuideStore } from "../src/internal/open-guide-store.js";

let src: string;
let dest: string;
beforeEach(async () => {
  src = await mkdtemp(join(tmpdir(), "guia-src-"));
  dest = await mkdtemp(join(tmpdir(), "guia-dest-"));
});
afterEach(async () => {
  await rm(src, { recursive: true, force: true });
  await rm(dest, { recursive: true, force: true });
});

describe("importGuides", () => {
  it("imports a folder, validating each guide and reporting what it skipped and why", async () => {
    await writeFile(
      join(src, "algebra.json"),
      JSON.stringify({ asignatura: "Guía docente de Álgebra (100001A)", grado: "G" }),
    );
    await writeFile(
      join(src, "calculo.yaml"),
      "subject: calculo_1\nasignatura: Cálculo I\nevaluación: [Examen 100%]\n",
    );
    await writeFile(
      join(src, "lista.json"),
      JSON.stringify([{ asignatura: "Física", grado: "G" }, { grado: "no name" }]),
    );
    await writeFile(join(src, "broken.json"), "{");
    await writeFile(join(src, "inject.json"), JSON.stringify({ asignatura: "X", grado: { $ne: null } }));
    await writeFile(join(src, "dotted.json"), JSON.stringify({ asignatura: "Y", "a.b": 1 }));
    await writeFile(join(src, "array.json"), JSON.stringify("just a string"));
    await writeFile(join(src, "notes.txt"), "ignored");
    const progress: number[] = [];
    const report = await importGuides(src, createFolderGuideStore({ dir: dest, seed: false }), {
      onProgress: (d) => progress.push(d),
    });
    expect(report.imported.map((i) => i.subject).sort()).toEqual(["algebra", "calculo_1", "fisica"]);
    expect(report.imported.find((i) => i.subject === "algebra")).toMatchObject({
      name: "Álgebra",
      action: "created",
    });
    const reasons = Object.fromEntries(
      report.skipped.map((s) => [s.source.replace(`${src}/`, ""), s.reason]),
    );
    expect(reasons).toMatchObject({
      "lista.json[1]": expect.stringContaining("missing the subject's name"),
      "broken.json": expect.stringContaining("cannot be read or parsed"),
      "inject.json": expect.stringContaining('key "$ne"'),
      "dotted.json": expect.stringContaining('key "a.b"'),
      "array.json": "not a JSON object",
    });
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const store = createFolderGuideStore({ dir: dest, seed: false });
    expect((await store.get("calculo_1"))?.data.evaluación).toEqual(["Examen 100%"]);
    const again = await importGuides(join(src, "algebra.json"), store);
    expect(again.imported).toEqual([expect.objectContaining({ subject: "algebra", action: "replaced" })]);
  });

  it("the same subject twice in one import keeps the first and says so", async () => {
    await writeFile(join(src, "a.json"), JSON.stringify({ subject: "same", asignatura: "A", grado: "G" }));
    await writeFile(join(src, "b.json"), JSON.stringify({ subject: "same", asignatura: "B", grado: "G" }));
    const report = await importGuides(src, createFolderGuideStore({ dir: dest, seed: false }));
    expect(report.imported).toHaveLength(1);
    expect(report.skipped[0]?.reason).toContain('same subject "same"');
  });

  it("a store that cannot be written reports each guide as skipped", async () => {
    await writeFile(join(src, "a.json"), JSON.stringify({ asignatura: "A", grado: "G" }));
    const report = await importGuides(src, openGuideStore({ seed: true }));
    expect(report.imported).toHaveLength(0);
    expect(report.skipped[0]?.reason).toContain("GUIA_DIR");
  });

  it("an empty folder is reported; a missing path throws", async () => {
    await mkdir(join(src, "empty"));
    expect(
      (await importGuides(join(src, "empty"), createFolderGuideStore({ dir: dest }))).skipped[0]?.reason,
    ).toContain("no .json");
    await expect(importGuides(join(src, "nope"), createFolderGuideStore({ dir: dest }))).rejects.toThrow();
  });

  it("imports the real UGR guides in their original layout (<subject>/guía_docente.json)", async () => {
    for (const subject of ["metaheuristicas", "modelos_avanzados_computacion"]) {
      await mkdir(join(src, "ugr-guia-docente", subject), { recursive: true });
      await copyFile(
        join(SEED_GUIDES_DIR, `${subject}.json`),
        join(src, "ugr-guia-docente", subject, "guía_docente.json"),
      );
    }
    const report = await importGuides(
      join(src, "ugr-guia-docente"),
      createFolderGuideStore({ dir: dest, seed: false }),
    );
    expect(report.imported.map((i) => [i.subject, i.name])).toEqual([
      ["metaheuristicas", "Metaheurísticas"],
      ["modelos_avanzados_computacion", "Modelos Avanzados de Computación"],
    ]);
    expect(report.skipped).toEqual([]);
  });
});
