import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import { pluginSettings, startUpstreams, type Upstreams } from "./fault-matrix/upstreams.js";
import { makeProject, type Project, REPO_DIR, runQuiver, type ServeProcess, startServe } from "./helpers.js";
import {
  type ControlServer,
  describePythonSuite,
  fixture,
  PYTHON_MISSING,
  SEED_KEYS,
  SEED_POLICIES,
  startControl,
  stdioSettings,
} from "./seed-python/harness.js";

// Issue 26 item 6: the AI co-scientist's External Tools Interface, in Python
// (clients/python/tests/test_co_scientist.py), against `quiver serve --profile co-scientist` over HTTP
// and MCP. AlphaFold DB, UniProt/ESMFold and openFDA are emulators serving the plugins' recorded
// answers; the private repository holds alice's collections: `scifact` (the SciFact abstracts
// private-repo ships as demo data) and `papers` (dated trial records, fixtures/glp1-trials.bib). Tokens
// make two scientists, alice and bob.

const TOKENS = { "tok-seed-alice": "alice", "tok-seed-bob": "bob" };
let up: Upstreams;
let control: ControlServer;
let project: Project;
let repo: string;
let serve: ServeProcess;
/** How the Python suite starts the profile over MCP stdio, as alice (stdio has no tokens: the principal). */
let stdio: Record<string, string>;

beforeAll(async () => {
  if (PYTHON_MISSING) return;
  up = await startUpstreams(SEED_KEYS);
  control = await startControl({ afdb: up.afdb, fold: up.fold, fda: up.fda });
  const settings = pluginSettings(up, SEED_KEYS);
  project = makeProject({
    workspace: ["@quiver/plugin-alphafold", "@quiver/plugin-fda", "@quiver/plugin-private-repo"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        tokens: TOKENS,
        policies: SEED_POLICIES,
        plugins: Object.fromEntries(Object.entries(settings.options).map(([id, o]) => [id, { options: o }])),
      }),
    },
  });
  repo = mkdtempSync(join(tmpdir(), "quiver-seed-repo-"));
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
  serve = await startServe(["--profile", "co-scientist"], { cwd: project.dir, env });
  stdio = stdioSettings("co-scientist", project.dir, { ...env, QUIVER_PRINCIPAL: "alice" });
});
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
  if (repo) rmSync(repo, { recursive: true, force: true });
  await control?.close();
  await up?.close();
});

describePythonSuite(
  "the co-scientist's Python suite against quiver serve --profile co-scientist",
  "test_co_scientist",
  () => ({
    QUIVER_URL: serve.url,
    QUIVER_TOKEN: "tok-seed-alice",
    QUIVER_OTHER_TOKEN: "tok-seed-bob",
    QUIVER_SEED_CONTROL_URL: control.url,
    ...stdio,
  }),
);
