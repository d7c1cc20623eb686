// Two `quiver serve` replicas on a PostgreSQL cluster of the test's own: the real server is stopped
// (`pg_ctl stop -m immediate`) mid-run and started again, without restarting the replicas.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, runQuiver, type ServeProcess, startServe } from "./helpers.js";
import { privatePostgresUnavailable, startPostgresServer } from "./postgres-server.js";
import { privateRepoUnbuilt, searchRepo, stopReplicas } from "./replica-helpers.js";

/** Why the test cannot run here, or undefined. */
const reason = (() => {
  const missing = privatePostgresUnavailable();
  if (missing) return missing;
  return privateRepoUnbuilt();
})();
if (reason) console.log(`skipped (replicas with PostgreSQL stopped): ${reason}`);

let pg: Awaited<ReturnType<typeof startPostgresServer>>;
let project: Project;
const replicas: ServeProcess[] = [];
const envOf: Array<Record<string, string>> = [];

beforeAll(async () => {
  if (reason) return;
  pg = await startPostgresServer();
  project = makeProject({ workspace: ["@quiver/plugin-private-repo"] });
  for (let i = 0; i < 2; i++) {
    envOf.push({
      QUIVER_TOKENS: "tok-alice=alice",
      DATABASE_URL: pg.url,
      QUIVER_PRIVATE_REPO: mkdtempSync(join(tmpdir(), `quiver-pgstop-${i}-`)),
    });
  }
  replicas.push(...(await Promise.all(envOf.map((env) => startServe([], { cwd: project.dir, env })))));
}, 60_000);

afterAll(async () => {
  await stopReplicas(replicas);
  await pg?.close();
  project?.cleanup();
});

describe.skipIf(reason !== undefined)("replicas while their PostgreSQL server is stopped", () => {
  it("answer unavailable (retryable) and keep serving, then find again once the server is back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quiver-pgstop-doc-"));
    const file = join(dir, "axolotl.md");
    writeFileSync(file, "# Axolotl limb regrowth\n\nqqpgstopmarker limb regeneration in axolotls.\n");
    const added = await runQuiver(
      ["private-repo", "add", file, "--owner", "alice", "--collection", "notes"],
      {
        cwd: project.dir,
        env: envOf[0]!,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(
      (await searchRepo(replicas[1]!, "tok-alice", "qqpgstopmarker axolotl")).data?.total_count,
    ).toBeGreaterThan(0);

    await pg.stop();
    const t0 = performance.now();
    const down = await searchRepo(replicas[1]!, "tok-alice", "qqpgstopmarker axolotl");
    const downMs = Math.round(performance.now() - t0);
    expect(down.status).toBe("unavailable");
    expect(down.error?.retryable).toBe(true);
    expect(down.error?.message).toMatch(/try again/);
    // Again through a replica that has not searched yet (a fresh connection refused, not a dropped one).
    const fresh = await searchRepo(replicas[0]!, "tok-alice", "qqpgstopmarker axolotl");
    expect(fresh.status).toBe("unavailable");
    expect(fresh.error?.retryable).toBe(true);
    const health = await fetch(`${replicas[1]!.url}/health`, { signal: AbortSignal.timeout(5_000) });
    expect(health.ok).toBe(true);

    await pg.start();
    const t1 = performance.now();
    await expect
      .poll(
        async () =>
          (await searchRepo(replicas[1]!, "tok-alice", "qqpgstopmarker axolotl")).data?.total_count ?? 0,
        {
          timeout: 15_000,
          interval: 100,
        },
      )
      .toBeGreaterThan(0);
    const backMs = Math.round(performance.now() - t1);
    expect(
      (await searchRepo(replicas[0]!, "tok-alice", "qqpgstopmarker axolotl")).data?.total_count,
    ).toBeGreaterThan(0);
    console.log(
      `private PostgreSQL: initdb ${pg.timings.initdb} ms, start ${pg.timings.start} ms, stop ${pg.timings.stop} ms, ` +
        `restart ${pg.timings.restart} ms; search while stopped answered ${down.status} in ${downMs} ms ` +
        `(${JSON.stringify(down.error)}); found again ${backMs} ms after the restart`,
    );
  }, 40_000);
});
