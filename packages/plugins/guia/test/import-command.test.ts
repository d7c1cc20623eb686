import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandUsageError } from "@quiver/core";
import { runPluginCommand, useCatalog } from "@quiver/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGuiaPlugin } from "../src/index.js";

const makeCatalog = useCatalog();
let tmp: string;
let src: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), "guia-import-"));
  src = join(tmp, "to-import");
  await mkdir(src, { recursive: true });
  await writeFile(
    join(src, "algebra.yaml"),
    "asignatura: Álgebra Lineal\nevaluación:\n  - Examen final (70%)\n  - Prácticas (30%)\nbibliografía:\n  - Strang, Linear Algebra\n",
  );
  await writeFile(join(src, "broken.json"), '{"evaluación": []}');
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const run = (
  args: string[],
  flags: Record<string, string> = {},
  env: Record<string, string> = {},
  json = false,
) => runPluginCommand(createGuiaPlugin(), "import", { args, flags, env, json, cwd: tmp });

describe("quiver guia import <path…>", () => {
  it("imports valid guides into GUIA_DIR and reports the skipped ones with the reason; the tool then serves them", async () => {
    const guides = join(tmp, "guias");
    const r = await run(["to-import"], {}, { GUIA_DIR: guides }, true);
    expect(r.exitCode).toBe(0);
    expect(r.lines).toEqual([]);
    const report = r.json[0] as {
      store: string;
      target: string;
      imported: Array<{ subject: string; action: string }>;
      skipped: Array<{ reason: string }>;
    };
    expect(report).toMatchObject({ store: "folder", target: guides });
    expect(report.imported).toEqual([expect.objectContaining({ subject: "algebra", action: "created" })]);
    expect(report.skipped[0]?.reason).toMatch(/missing the subject's name/);
    expect(r.progress.at(-1)).toEqual({ done: 2, total: 2, label: join(src, "broken.json") });

    const catalog = makeCatalog({ env: { GUIA_DIR: guides } });
    catalog.register(createGuiaPlugin());
    const got = await catalog.call("guia_get_guide", { asignatura: "algebra", key: "evaluación" });
    expect(got.status, got.message).toBe("success");
    expect(JSON.stringify(got.data)).toContain("Examen final");
  });

  it("--dir writes to another folder; several paths in one run; lines for people", async () => {
    await writeFile(join(tmp, "fisica.json"), JSON.stringify({ asignatura: "Física", grado: "G" }));
    const r = await run(["to-import", "fisica.json"], { dir: "elsewhere" });
    expect(r.exitCode).toBe(0);
    expect(r.lines).toContain(`created algebra Álgebra Lineal (${join(src, "algebra.yaml")})`);
    expect(r.lines).toContain(`created fisica Física (${join(tmp, "fisica.json")})`);
    expect(r.lines.at(-1)).toBe(`2 imported into ${join(tmp, "elsewhere")}, 1 skipped.`);
    expect(existsSync(join(tmp, "elsewhere"))).toBe(true);
  });

  it("refuses to import where nothing would serve it (no GUIA_DIR, no --dir), with a hint", async () => {
    const error = await run(["to-import"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandUsageError);
    expect((error as CommandUsageError).hint).toMatch(/Set GUIA_DIR .* or pass --dir/);
  });

  it("a path that does not exist is a usage error", async () => {
    const error = await run(["nope.json"], { dir: "guias" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandUsageError);
    expect((error as Error).message).toBe("nope.json does not exist.");
  });

  it("exits 1 when nothing could be imported", async () => {
    const r = await run([join(src, "broken.json")], { dir: "guias" });
    expect(r.exitCode).toBe(1);
    expect(r.lines.at(-1)).toMatch(/^0 imported into .*, 1 skipped\.$/);
  });

  it("describes itself for --help: positionals, options with descriptions, examples starting with quiver", () => {
    const command = createGuiaPlugin().commands?.find((c) => c.name === "import");
    expect(command?.positionals).toEqual({ min: 1, names: "<path…>" });
    expect(command?.options?.dir?.description).toMatch(/GUIA_DIR/);
    for (const example of command?.examples ?? []) expect(example).toMatch(/quiver guia import /);
  });
});
