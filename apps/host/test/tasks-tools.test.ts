import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginSettings, startUpstreams, type Upstreams } from "./fault-matrix/upstreams.js";
import { makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

// The first-party tools that declare task support run as tasks on a real `quiver serve` process
// (`Prefer: respond-async`), their progress seen in the task while it works: an ESMFold fold, a
// testgen batch and a folder added to a private repository.
const KEYS = {
  CONTEXT7_API_KEY: "c7-test",
  PERPLEXITY_API_KEY: "pplx-test",
  RAG_API_KEY: "rag-test",
  LLM_API_KEY: "llm-test",
  OPENFDA_API_KEY: "fda-test",
  MONGODB_URI: "mongodb://127.0.0.1:9/none",
};
const ALICE = { authorization: "Bearer tok-a" };
const BOB = { authorization: "Bearer tok-b" };
const NEW_SEQUENCE = "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQ";

let up: Upstreams;
let project: Project;
let serve: ServeProcess;
let repoDir: string;

beforeAll(async () => {
  up = await startUpstreams(KEYS);
  repoDir = mkdtempSync(join(tmpdir(), "quiver-tasks-repo-"));
  const papers = join(repoDir, "imports", "alice", "papers");
  mkdirSync(papers, { recursive: true });
  for (const n of [1, 2, 3])
    writeFileSync(
      join(papers, `paper-${n}.md`),
      `# Base editing ${n}\n\nAdenine base editors in the liver, study ${n}.\n`,
    );
  const settings = pluginSettings(up, KEYS);
  project = makeProject({
    workspace: ["@quiver/plugin-alphafold", "@quiver/plugin-testgen", "@quiver/plugin-private-repo"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({
        plugins: { alphafold: { options: { ...settings.options.alphafold, progressIntervalMs: 100 } } },
      }),
    },
  });
  serve = await startServe([], {
    cwd: project.dir,
    env: {
      ...settings.env,
      QUIVER_TOKENS: "tok-a=alice,tok-b=bob",
      QUIVER_PRIVATE_REPO: repoDir,
      QUIVER_SHUTDOWN_TIMEOUT: "1s",
    },
  });
}, 60_000);
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  await up?.close();
  project?.cleanup();
  if (repoDir) rmSync(repoDir, { recursive: true, force: true });
});

type Progress = { progress: number; total?: number; message?: string };
type Task = { id: string; status: string; tool: string; progress?: Progress };

/** Starts a task-capable tool as a task; polls it to its end, collecting the progress seen meanwhile. */
const runAsTask = async (tool: string, input: unknown, headers = ALICE) => {
  const started = await fetch(`${serve.url}/tools/${tool}/call`, {
    method: "POST",
    headers: { "content-type": "application/json", prefer: "respond-async", ...headers },
    body: JSON.stringify(input),
  });
  expect(started.status, await started.clone().text()).toBe(202);
  const location = started.headers.get("location") as string;
  const seen: Progress[] = [];
  for (;;) {
    const r = await fetch(new URL(location, serve.url), { headers });
    if (r.status !== 202) {
      const { tasks } = (await (await fetch(`${serve.url}/tasks`, { headers })).json()) as { tasks: Task[] };
      const task = tasks.find((t) => location.endsWith(t.id));
      return {
        status: r.status,
        envelope: await r.json(),
        seen,
        task,
        taskStatus: r.headers.get("x-quiver-task-status"),
      };
    }
    const { task } = (await r.json()) as { task: Task };
    if (task.progress && seen.at(-1)?.message !== task.progress.message) seen.push(task.progress);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe("first-party tools as tasks, with progress", () => {
  it("lists alphafold, testgen and private-repo's folder tool as task-capable, with their deadlines", async () => {
    const { tools } = (await (await fetch(`${serve.url}/tools`, { headers: ALICE })).json()) as {
      tools: Array<{ name: string; task?: string; taskDeadlineMs?: number }>;
    };
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.alphafold_predict_structure).toMatchObject({ task: "optional", taskDeadlineMs: 180_000 });
    expect(byName.testgen_generate_test).toMatchObject({ task: "optional", taskDeadlineMs: 180_000 });
    expect(byName.private_repo_add_folder).toMatchObject({ task: "optional", taskDeadlineMs: 1_200_000 });
  });

  it("an ESMFold fold: its stages show while ESMFold folds, then the fold's envelope", async () => {
    up.fold.fault("POST", /foldSequence/, { kind: "delay", ms: 3_000 });
    try {
      const run = await runAsTask("alphafold_predict_structure", { sequence: NEW_SEQUENCE });
      expect(run.status).toBe(200);
      expect(run.taskStatus).toBe("completed");
      expect(run.envelope.status, run.envelope.message).toBe("success");
      expect(run.envelope.data).toMatchObject({ source: "esmfold", sequence_length: NEW_SEQUENCE.length });
      expect(run.seen.some((p) => /ESMFold/.test(p.message ?? "") && p.total === 4)).toBe(true);
    } finally {
      up.fold.clearFaults();
    }
  });

  it("a testgen batch: the LLM step shows while the LLM answers, then the questions", async () => {
    up.llm.fault("POST", /chat\/completions/, { kind: "delay", ms: 2_500 });
    try {
      const run = await runAsTask("testgen_generate_test", {
        topic: "base editing",
        num_questions: 3,
        context:
          "Adenine base editors convert A·T to G·C pairs without double-strand breaks. They are delivered to the liver by lipid nanoparticles.",
      });
      expect(run.status).toBe(200);
      expect(run.envelope.status, run.envelope.message).toBe("success");
      expect(run.envelope.data.questions).toHaveLength(3);
      expect(run.seen).toContainEqual({ progress: 1, total: 3, message: "asking the LLM for 3 questions" });
    } finally {
      up.llm.clearFaults();
    }
  });

  it("a folder added to alice's collection: progress per file, then indexed; bob cannot reach her folder", async () => {
    const run = await runAsTask("private_repo_add_folder", { folder: "papers", collection: "editing" });
    expect(run.status).toBe(200);
    expect(run.envelope.status, run.envelope.message).toBe("success");
    expect(run.envelope.data).toMatchObject({
      collection: "editing",
      documents: 3,
      added: 3,
    });
    // The task's last progress: the documents indexed.
    expect(run.task?.progress).toEqual({ progress: 3, total: 3, message: "indexing: 3 of 3 documents" });
    const search = await fetch(`${serve.url}/tools/private_repo_search/call`, {
      method: "POST",
      headers: { "content-type": "application/json", ...ALICE },
      body: JSON.stringify({ search_terms: "adenine base editors", filters: { collections: ["editing"] } }),
    });
    expect((await search.json()).data.results).toHaveLength(3);

    const bob = await runAsTask(
      "private_repo_add_folder",
      { folder: "../alice/papers", collection: "stolen" },
      BOB,
    );
    expect(bob.envelope.status).toBe("error");
    expect(bob.envelope.error.kind).toBe("invalid_input");
    expect(bob.envelope.message).toMatch(/not inside your import folder/);
  });
});
