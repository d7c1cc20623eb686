import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describePluginConformance, describePluginPackage, useCatalog } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import guiaDefault, { createGuiaPlugin } from "../src/index.js";

describePluginPackage(new URL("..", import.meta.url));
describePluginConformance(guiaDefault, {
  options: () => ({}),
  needsArguments: { guia_get_guide: "the subject, when the session names none" },
});

const makeCatalog = useCatalog();
const open = (
  plugin = createGuiaPlugin(),
  options: Record<string, unknown> = {},
  env: Record<string, string> = {},
) => {
  const catalog = makeCatalog({ env });
  catalog.register(plugin, options);
  return catalog;
};

describe("guia_get_guide over the shipped real guides", () => {
  it("without key returns the summary: id, name, code, degree, lecturers, brief description, sections", async () => {
    const r = await open().call("guia_get_guide", { asignatura: "metaheuristicas" });
    expect(r.status, r.message).toBe("success");
    expect(r.data).toMatchObject({
      type: "summary",
      subject: "metaheuristicas",
      asignatura: "Metaheurísticas",
      codigo: "296113E",
      grado: "Grado en Ingeniería Informática",
      breve_descripcion: [
        "Algoritmos avanzados de optimización y búsqueda.",
        expect.any(String),
        "Metaheurísticas paralelas.",
      ],
      profesorado: ["Francisco Herrera Triguero (Teórico)", "Daniel Molina Cabrera (Práctico)"],
    });
    expect((r.data as { secciones: string[] }).secciones).toContain("evaluación");
    for (const absent of ["curso", "url"])
      expect((r.data as Record<string, unknown>)[absent]).toBeUndefined();
    expect(r.metadata.source).toContain("296113E");
  });

  it("finds the subject by name, code or title line, accents and case ignored", async () => {
    const c = open();
    for (const asignatura of [
      "Metaheurísticas",
      "METAHEURISTICAS",
      "296113E",
      "Guía docente de Metaheurísticas",
      "modelos avanzados",
    ]) {
      const r = await c.call("guia_get_guide", { asignatura });
      expect(r.status, `${asignatura}: ${r.message}`).toBe("success");
    }
  });

  it("returns a section by its real key, with the scraped indentation cleaned", async () => {
    const r = await open().call("guia_get_guide", {
      asignatura: "metaheuristicas",
      key: "metodología_docente",
    });
    expect(r.status).toBe("success");
    expect(r.data).toMatchObject({ type: "section", key: "metodología_docente" });
    expect((r.data as { value: string[] }).value[0]).toBe("MD01. Lección magistral.");
  });

  it.each([
    ["evaluación", "evaluación"],
    ["evaluacion", "evaluación"],
    ["Evaluación", "evaluación"],
    ["evaluación.evaluación_ordinaria", "evaluación.evaluación_ordinaria"],
    ["evaluacion.ordinaria", "evaluación.evaluación_ordinaria"],
    ["evaluación_extraordinaria", "evaluación.evaluación_extraordinaria"],
    ["bibliografía", "bibliografía"],
    ["bibliografia.fundamental", "bibliografía.bibliografía_fundamental"],
    ["objetivos", "resultados_de_aprendizaje"],
    ["competencias", "resultados_del_proceso_de_formación_y_de_aprendizaje"],
    ["metodología docente", "metodología_docente"],
    ["profesorado y tutorías", "profesorado_y_tutorias"],
    ["breve descripción de contenidos", "breve_descripción_de_contenidos"],
    ["programa", "programa_de_contenidos_teóricos_y_prácticos"],
    ["prerrequisitos", "prerrequisitos_o_recomendaciones"],
    ["enlaces", "enlaces_recomendados"],
    ["información adicional", "información_adicional"],
  ])("Metaheurísticas key %s → section %s", async (key, path) => {
    const r = await open().call("guia_get_guide", { asignatura: "metaheuristicas", key });
    expect(r.status, r.message).toBe("success");
    expect((r.data as { key: string }).key).toBe(path);
  });

  it("competencias.generales reaches MAC's general_competences (a real variation between guides)", async () => {
    const r = await open().call("guia_get_guide", {
      asignatura: "modelos_avanzados_computacion",
      key: "competencias.generales",
    });
    expect(r.status, r.message).toBe("success");
    expect(r.data).toMatchObject({ key: "competencias.general_competences", codigo: "296113D" });
    expect((r.data as { value: string[] }).value[0]).toMatch(/^CG09\. Capacidad para resolver problemas/);
  });

  it("the evaluation section carries the real grading rules", async () => {
    const r = await open().call("guia_get_guide", {
      asignatura: "modelos_avanzados_computacion",
      key: "evaluación.evaluación_ordinaria",
    });
    expect(JSON.stringify(r.data)).toContain("50%");
  });

  it("an unknown subject is a clear error listing the subjects that exist", async () => {
    const r = await open().call("guia_get_guide", { asignatura: "astrofísica" });
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("out_of_domain");
    expect(r.message).toContain("astrofísica");
    expect(r.message).toContain("metaheuristicas (Metaheurísticas, 296113E)");
    expect(r.message).toContain("modelos_avanzados_computacion");
  });

  it("a misspelt subject suggests the closest", async () => {
    const r = await open().call("guia_get_guide", { asignatura: "metaheuristcas" });
    expect(r.status).toBe("error");
    expect(r.suggestion).toContain('"metaheuristicas"');
  });

  it("an unknown key is a clear error listing the sections and the closest", async () => {
    const r = await open().call("guia_get_guide", { asignatura: "metaheuristicas", key: "horario" });
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("out_of_domain");
    expect(r.message).toContain('no section "horario"');
    expect(r.message).toContain("evaluación.evaluación_ordinaria");
    const near = await open().call("guia_get_guide", {
      asignatura: "metaheuristicas",
      key: "bibliografia.fundamentl",
    });
    expect(near.status).toBe("error");
  });

  it("operator objects are rejected by validation, never reach the store", async () => {
    for (const asignatura of [{ $ne: null }, { $regex: ".*" }, ["metaheuristicas"]]) {
      const r = await open().call("guia_get_guide", { asignatura });
      expect(r.status).toBe("error");
      expect(r.error?.kind).toBe("invalid_input");
    }
  });
});

describe("the session's asignatura (context-injected parameter)", () => {
  it("default mode: the field stays visible to the model and the session fills it when left out", async () => {
    const c = open();
    expect(
      Object.keys((c.describe("guia_get_guide", "openai")!.inputSchema as { properties: object }).properties),
    ).toContain("asignatura");
    const r = await c.call(
      "guia_get_guide",
      { key: "evaluación" },
      { session: { id: "s", values: { asignatura: "metaheuristicas" } } },
    );
    expect(r.status, r.message).toBe("success");
    expect((r.data as { subject: string }).subject).toBe("metaheuristicas");
  });

  it("default mode: an explicit subject wins over the session's", async () => {
    const r = await open().call(
      "guia_get_guide",
      { asignatura: "296113D" },
      { session: { id: "s", values: { asignatura: "metaheuristicas" } } },
    );
    expect((r.data as { subject: string }).subject).toBe("modelos_avanzados_computacion");
  });

  it("standalone (no session value, no argument): an error that lists the subjects to choose from", async () => {
    const r = await open().call("guia_get_guide", {});
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("invalid_input");
    expect(r.message).toContain("metaheuristicas");
    expect(r.suggestion).toContain("asignatura");
  });

  it("a non-string session value is ignored", async () => {
    const r = await open().call("guia_get_guide", {}, { session: { values: { asignatura: { $ne: null } } } });
    expect(r.error?.kind).toBe("invalid_input");
  });

  it("override mode: hidden from the model, the session value always wins; explicit still works without one", async () => {
    const c = open(createGuiaPlugin({ sessionAsignatura: "override" }));
    const schema = c.describe("guia_get_guide", "openai")!.inputSchema as { properties: object };
    expect(Object.keys(schema.properties)).not.toContain("asignatura");
    const r = await c.call(
      "guia_get_guide",
      { asignatura: "296113D" },
      { session: { values: { asignatura: "metaheuristicas" } } },
    );
    expect((r.data as { subject: string }).subject).toBe("metaheuristicas");
    const alone = await c.call("guia_get_guide", { asignatura: "296113D" });
    expect((alone.data as { subject: string }).subject).toBe("modelos_avanzados_computacion");
  });
});

describe("settings", () => {
  it("GUIA_DIR adds your guides; GUIA_SEED=false leaves out the shipped ones", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guia-"));
    try {
      await writeFile(
        join(dir, "algebra.yaml"),
        "asignatura: Guía docente de Álgebra Lineal (123456A)\ngrado: Grado en Matemáticas\nevaluación:\n  evaluación_ordinaria:\n    - Examen final 70%\n",
      );
      const c = open(createGuiaPlugin(), {}, { GUIA_DIR: dir, GUIA_SEED: "false" });
      const r = await c.call("guia_get_guide", { asignatura: "algebra", key: "evaluacion.ordinaria" });
      expect(r.status, r.message).toBe("success");
      expect(r.data).toMatchObject({
        asignatura: "Álgebra Lineal",
        codigo: "123456A",
        value: ["Examen final 70%"],
      });
      const seedGone = await c.call("guia_get_guide", { asignatura: "metaheuristicas" });
      expect(seedGone.status).toBe("error");
      expect(seedGone.message).toContain("algebra (Álgebra Lineal, 123456A)");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("an empty store answers unavailable with the import command", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guia-"));
    try {
      const r = await open(createGuiaPlugin({ guidesDir: dir, seed: false })).call("guia_get_guide", {
        asignatura: "x",
      });
      expect(r.status).toBe("unavailable");
      expect(r.suggestion).toContain("quiver guia import");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("GUIA_STORE=mongodb without MONGODB_URI leaves the plugin unconfigured, naming the variable", async () => {
    const c = open(createGuiaPlugin(), {}, { GUIA_STORE: "mongodb" });
    expect(c.plugins()[0]).toMatchObject({ status: "unconfigured", missing: ["MONGODB_URI"] });
    const r = await c.call("guia_get_guide", { asignatura: "metaheuristicas" });
    expect(r.status).toBe("unavailable");
    expect(r.message).toContain("MONGODB_URI");
  });

  it("health reports the store and its guides", async () => {
    const report = await open().health("guia");
    expect(report.ok).toBe(true);
    expect(report.message).toContain("metaheuristicas");
  });
});
