import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useCatalog } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createGuiaPlugin } from "../src/index.js";

// The guia plugin's resources through a real catalog over the two real UGR guides it ships: the list, a
// guide whole, one section, and completion of the subject from the stored guides.
const makeCatalog = useCatalog({ env: {} });
const open = (options: Record<string, unknown> = {}) => {
  const catalog = makeCatalog();
  catalog.register(createGuiaPlugin(), options);
  return catalog;
};
const SHIPPED = JSON.parse(readFileSync(new URL("../demo/metaheuristicas.json", import.meta.url), "utf8"));
const json = (answer: unknown) =>
  JSON.parse((answer as { value: Array<{ text: string }> }).value[0]!.text) as Record<string, any>;

describe("guia resources", () => {
  it("lists the guides resource and the guide and section templates", () => {
    const catalog = open();
    expect(catalog.resources().map((r) => [r.uri, r.mimeType])).toEqual([
      ["guia://guides", "application/json"],
    ]);
    expect(catalog.resourceTemplates().map((t) => t.uriTemplate)).toEqual([
      "guia://guides/{subject}",
      "guia://guides/{subject}/sections/{section}",
    ]);
  });

  it("lists every guide with the URI that reads it", async () => {
    const list = json(await open().readResource("guia://guides"));
    expect(list.guides).toEqual([
      {
        subject: "metaheuristicas",
        name: "Metaheurísticas",
        code: "296113E",
        uri: "guia://guides/metaheuristicas",
      },
      expect.objectContaining({
        subject: "modelos_avanzados_computacion",
        uri: "guia://guides/modelos_avanzados_computacion",
      }),
    ]);
  });

  it("reads a guide whole: its subject id and every section as the guide file gives it", async () => {
    const read = await open().readResource("guia://guides/metaheuristicas");
    expect(read.ok).toBe(true);
    expect(read.ok && read.value[0]!.mimeType).toBe("application/json");
    expect(json(read)).toEqual({ subject: "metaheuristicas", ...SHIPPED });
    expect(Object.keys(json(read))).toEqual(["subject", ...Object.keys(SHIPPED)]);
  });

  it("reads one section by its path, accents percent-encoded, and by the names guia_get_guide accepts", async () => {
    const catalog = open();
    const path = encodeURIComponent("evaluación.evaluación_ordinaria");
    const read = json(await catalog.readResource(`guia://guides/metaheuristicas/sections/${path}`));
    expect(read).toEqual({
      subject: "metaheuristicas",
      asignatura: "Metaheurísticas",
      key: "evaluación.evaluación_ordinaria",
      value: SHIPPED.evaluación.evaluación_ordinaria,
    });
    const alias = json(await catalog.readResource("guia://guides/metaheuristicas/sections/bibliography"));
    expect(alias.key).toBe("bibliografía");
    expect(alias.value).toEqual(SHIPPED.bibliografía);
  });

  it("completes the subject from the stored guides, by id or name, and sections from their paths", async () => {
    const catalog = open();
    const subject = { uriTemplate: "guia://guides/{subject}", argument: "subject" };
    expect(await catalog.complete(subject, "")).toEqual({
      ok: true,
      value: ["metaheuristicas", "modelos_avanzados_computacion"],
    });
    expect(await catalog.complete(subject, "Meta")).toEqual({ ok: true, value: ["metaheuristicas"] });
    expect(await catalog.complete(subject, "zz")).toEqual({ ok: true, value: [] });
    const section = { uriTemplate: "guia://guides/{subject}/sections/{section}", argument: "section" };
    const sections = await catalog.complete(section, "evaluación.");
    expect(sections.ok && sections.value).toContain("evaluación.evaluación_ordinaria");
  });

  it("completes sections from the guide of the subject already filled in (MCP's context.arguments)", async () => {
    const catalog = open();
    const section = (given: Record<string, string>) =>
      catalog.complete(
        { uriTemplate: "guia://guides/{subject}/sections/{section}", argument: "section", arguments: given },
        "",
      );
    const all = await section({});
    expect(all.ok && all.value).toEqual(expect.arrayContaining(["competencias", "información_adicional"]));
    const meta = await section({ subject: "metaheuristicas" });
    expect(meta.ok && meta.value).toContain("información_adicional");
    expect(meta.ok && meta.value).not.toContain("competencias");
    const mac = await section({ subject: "modelos_avanzados_computacion" });
    expect(mac.ok && mac.value).toContain("competencias");
    expect(mac.ok && mac.value).not.toContain("información_adicional");
    expect(await section({ subject: "algebra" })).toEqual({ ok: true, value: [] });
  });

  it("completes a guide imported into the folder store", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guia-res-"));
    try {
      const guide = {
        subject: "algebra",
        asignatura: "Guía docente de Álgebra (1)",
        evaluación: ["Examen 100%"],
      };
      await writeFile(join(dir, "algebra.json"), JSON.stringify(guide));
      const catalog = open({ guidesDir: dir, seed: false });
      const subject = { uriTemplate: "guia://guides/{subject}", argument: "subject" };
      expect(await catalog.complete(subject, "al")).toEqual({ ok: true, value: ["algebra"] });
      expect(json(await catalog.readResource("guia://guides/algebra"))).toEqual(guide);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("answers not_found for an unknown guide or section, invalid_input for an id that is not a slug", async () => {
    const catalog = open();
    expect(await catalog.readResource("guia://guides/algebra")).toMatchObject({
      ok: false,
      kind: "not_found",
    });
    const none = await catalog.readResource("guia://guides/metaheuristicas/sections/recetas");
    expect(none).toMatchObject({ ok: false, kind: "not_found" });
    const bad = await catalog.readResource(`guia://guides/${encodeURIComponent('{"$ne":null}')}`);
    expect(bad).toMatchObject({ ok: false, kind: "invalid_input" });
  });
});
