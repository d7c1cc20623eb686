import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The AI co-scientist specification's Example 3, sent verbatim to `quiver serve --profile co-scientist
// --demo` as a new user starts it: the three co-scientist plugins installed, no settings, the demo
// repository (private-repo's demo step) holding the collection the example names.

const EXAMPLE_3 = `{"tool_type": "PRIVATE_REPOSITORY", "tool_name": "Lab_Publications", "query": {"search_terms": ["CRISPR", "base editing", "liver"], "filters": {"publication_date": {"after": "2020-01-01"}}}}`;

let cacheDir: string;
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "quiver-example-3-cache-"));
  project = makeProject({
    workspace: ["@quiver/plugin-alphafold", "@quiver/plugin-fda", "@quiver/plugin-private-repo"],
  });
  serve = await startServe(["--profile", "co-scientist", "--demo"], {
    cwd: project.dir,
    env: { QUIVER_CACHE_DIR: cacheDir },
  });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

describe("co-scientist Example 3 from the demo", () => {
  it("answers SUCCESS with results.documents and results.relevance_scores, the example's titles first", async () => {
    expect(serve.stderr()).toMatch(/lab abstracts as demo\/lab_publications/);
    const res = await fetch(`${serve.url}/external-tools/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: EXAMPLE_3,
    });
    expect(res.status).toBe(200);
    const r = (await res.json()) as Record<string, any>;
    expect(r.status, JSON.stringify(r.metadata)).toBe("SUCCESS");
    expect(r.tool_name).toBe("Lab_Publications");
    expect(Object.keys(r.results).sort()).toEqual(["documents", "relevance_scores"]);
    const documents = r.results.documents as Array<{ title: string; date: string }>;
    const scores = r.results.relevance_scores as number[];
    expect(documents.length).toBeGreaterThanOrEqual(2);
    expect(documents.slice(0, 2).map((d) => d.title)).toEqual([
      "Optimized base editing in hepatocytes",
      "CRISPR screens in liver organoids",
    ]);
    for (const d of documents) expect(d.date > "2020-01-01", d.title).toBe(true);
    expect(scores).toHaveLength(documents.length);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores[0]).toBeGreaterThan(0);
  });
});
