import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { REPO_DIR, runQuiver } from "./helpers.js";
import { fixture } from "./seed-python/harness.js";
import { describeSeedSuite } from "./seed-python/seed-suite.js";

// Issue 26 item 6: the AI co-scientist's External Tools Interface, in Python
// (clients/python/tests/test_co_scientist.py), against `quiver serve --profile co-scientist` over HTTP
// and MCP. AlphaFold DB, UniProt/ESMFold and openFDA are emulators serving the plugins' recorded
// answers; the private repository holds alice's collections: `scifact` (the SciFact abstracts
// private-repo ships as demo data) and `papers` (dated trial records, fixtures/glp1-trials.bib). Tokens
// make two scientists, alice and bob.

const TOKENS = { "tok-seed-alice": "alice", "tok-seed-bob": "bob" };

describeSeedSuite({
  title: "the co-scientist's Python suite against quiver serve --profile co-scientist",
  module: "test_co_scientist",
  profile: "co-scientist",
  plugins: ["@quiver/plugin-alphafold", "@quiver/plugin-fda", "@quiver/plugin-private-repo"],
  control: ["afdb", "fold", "fda"],
  config: (settings) => ({
    tokens: TOKENS,
    plugins: Object.fromEntries(Object.entries(settings.options).map(([id, o]) => [id, { options: o }])),
  }),
  start: async ({ settings, project, serve, stdio, defer }) => {
    const repo = mkdtempSync(join(tmpdir(), "quiver-seed-repo-"));
    defer(() => rmSync(repo, { recursive: true, force: true }));
    const env = { ...settings.env, QUIVER_PRIVATE_REPO: repo };
    const add = (files: string[], collection: string) =>
      runQuiver(["private-repo", "add", ...files, "--owner", "alice", "--collection", collection], {
        cwd: project.dir,
        env,
      });
    for (const added of [
      await add([join(REPO_DIR, "packages/plugins/private-repo/demo/scifact/corpus.jsonl")], "scifact"),
      await add([fileURLToPath(fixture("glp1-trials.bib"))], "papers"),
    ])
      expect(added.code, added.stderr).toBe(0);
    const server = await serve(env);
    return {
      QUIVER_URL: server.url,
      QUIVER_TOKEN: "tok-seed-alice",
      QUIVER_OTHER_TOKEN: "tok-seed-bob",
      // stdio has no tokens: the principal.
      ...stdio({ ...env, QUIVER_PRINCIPAL: "alice" }),
    };
  },
});
