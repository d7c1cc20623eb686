// Three `quiver serve` replicas on one Redis and one PostgreSQL, each with its own private-repo
// folder (as on separate machines): a document added through one replica is found through another.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTcpRelay, testPostgres } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, runQuiver, type ServeProcess, startServe } from "./helpers.js";
import { hasRedisServer, startRedisServer } from "./redis-server.js";
import { privateRepoUnbuilt, searchRepo, stopReplicas } from "./replica-helpers.js";

const db = await testPostgres("quiver_replicas");
const DATABASE_URL = db.url;
const SCHEMA = db.schema;

/** Why the test cannot run here, or undefined. */
const reason = (() => {
  if (!hasRedisServer()) return "redis-server is not installed";
  if (db.skipReason) return `no PostgreSQL answers at ${new URL(DATABASE_URL).host}`;
  return privateRepoUnbuilt();
})();
if (reason) console.log(`skipped (replicas on PostgreSQL): ${reason}`);

let redis: Awaited<ReturnType<typeof startRedisServer>>;
let relay: Awaited<ReturnType<typeof startTcpRelay>>;
let project: Project;
const replicas: ServeProcess[] = [];
const envOf: Array<Record<string, string>> = [];

beforeAll(async () => {
  if (reason) return;
  redis = await startRedisServer();
  // The replicas reach PostgreSQL through a relay the outage test cuts.
  const target = new URL(DATABASE_URL);
  relay = await startTcpRelay(target.hostname, Number(target.port || 5432));
  const viaRelay = new URL(DATABASE_URL);
  viaRelay.hostname = "127.0.0.1";
  viaRelay.port = String(relay.port);
  project = makeProject({ workspace: ["@quiver/plugin-private-repo"] });
  for (let i = 0; i < 3; i++) {
    envOf.push({
      QUIVER_REDIS_URL: redis.url,
      QUIVER_TOKENS: "tok-alice=alice,tok-bob=bob",
      DATABASE_URL: viaRelay.toString(),
      QUIVER_SEARCH_SCHEMA: SCHEMA,
      // Each replica its own folder, as on its own machine: only the database is shared.
      QUIVER_PRIVATE_REPO: mkdtempSync(join(tmpdir(), `quiver-replica-${i}-`)),
    });
  }
  replicas.push(...(await Promise.all(envOf.map((env) => startServe([], { cwd: project.dir, env })))));
}, 60_000);

afterAll(async () => {
  await stopReplicas(replicas);
  await redis?.stop();
  await relay?.stop();
  await db.dropSchema();
  project?.cleanup();
});

describe.skipIf(reason !== undefined)("three replicas on one Redis and one PostgreSQL", () => {
  it("find through replicas 1 and 2 a document added through replica 0, for its owner only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quiver-replica-doc-"));
    const file = join(dir, "zebrafish.md");
    writeFileSync(
      file,
      "---\nauthors: [Ada Lovelace]\ndate: 2024-05-01\n---\n# Zebrafish fin regrowth\n\nqqreplicamarker fin regeneration in zebrafish.\n",
    );
    const added = await runQuiver(
      ["private-repo", "add", file, "--owner", "alice", "--collection", "notes"],
      {
        cwd: project.dir,
        env: envOf[0]!,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    for (const i of [1, 2]) {
      const found = await searchRepo(replicas[i]!, "tok-alice", "qqreplicamarker zebrafish");
      expect(found.status).toBe("success");
      expect(found.data?.total_count).toBeGreaterThan(0);
    }
    const other = await searchRepo(replicas[2]!, "tok-bob", "qqreplicamarker zebrafish");
    expect(other.data?.total_count ?? 0).toBe(0);
    console.log(
      "document added through replica 0 (private-repo add) found through replicas 1 and 2; not by another principal",
    );
  });

  it("answer unavailable (retryable) while PostgreSQL is unreachable, and find again once it is back", async () => {
    await relay.stop();
    const down = await searchRepo(replicas[1]!, "tok-alice", "qqreplicamarker zebrafish");
    expect(down.status).toBe("unavailable");
    expect(down.error?.retryable).toBe(true);
    await relay.start();
    await expect
      .poll(
        async () =>
          (await searchRepo(replicas[2]!, "tok-alice", "qqreplicamarker zebrafish")).data?.total_count ?? 0,
        {
          timeout: 15_000,
          interval: 100,
        },
      )
      .toBeGreaterThan(0);
  });
});
