import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { type Catalog, createCatalog, type StoreDriver } from "@quiver/core";
import { redisStore } from "@quiver/redis";
import { createClient } from "redis";
import { afterAll, describe, expect, it } from "vitest";
import { createTaskRunner, ORPHAN_MESSAGE, type TaskRunner } from "../src/index.js";
import { aborted, release, resumed, started, taskPlugin } from "./fixtures/task-plugin.js";
import { eventually } from "./helpers.js";

const REDIS_URL = process.env.QUIVER_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `quiver-test:tasks:${process.pid}:${Date.now().toString(36)}:`;

const reachable = async () => {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    if (client.isOpen) client.destroy();
  }
};
const up = await reachable();

const opened: Array<{ catalog: Catalog; runner: TaskRunner }> = [];
/** A replica with its own Redis connection, catalog and runner. */
const replica = () => {
  const store: StoreDriver = redisStore({ url: REDIS_URL, prefix });
  const catalog = createCatalog({ store });
  catalog.register(taskPlugin);
  const runner = createTaskRunner({ catalog, store, progressIntervalMs: 0, sweepIntervalMs: 0 });
  opened.push({ catalog, runner });
  return runner;
};

afterAll(async () => {
  for (const { catalog, runner } of opened) {
    await runner.close();
    await catalog.close();
  }
  if (!up) return;
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) keys.push(...batch);
  if (keys.length > 0) await client.del(keys);
  client.destroy();
});

describe.skipIf(!up)("tasks on the real Redis (two replicas, two connections)", () => {
  it("a cancel sent to replica B stops the work on replica A, through Redis's publish/subscribe", async () => {
    const a = replica();
    const b = replica();
    const task = await a.start("slow_job", { label: "redis-cancel" }, { principal: "alice" });
    expect(await b.get(task.id, "alice")).toMatchObject({ ok: true, task: { status: "working" } });
    expect(await b.get(task.id, "bob")).toMatchObject({ ok: false, code: "not_found" });
    await eventually(() => started.has("redis-cancel"));
    expect(await b.cancel(task.id, "alice")).toMatchObject({ ok: true, task: { status: "cancelled" } });
    await eventually(() => aborted.has("redis-cancel"));
    expect(await a.result(task.id, "alice", { wait: true })).toMatchObject({ ok: false, code: "cancelled" });
  });

  it("settles on another replica to the stored envelope", async () => {
    const a = replica();
    const b = replica();
    const task = await a.start(
      "slow_job",
      { label: "redis-done" },
      { principal: "alice", pollIntervalMs: 20 },
    );
    await eventually(() => started.has("redis-done"));
    const waiting = b.result(task.id, "alice", { wait: true });
    release("redis-done");
    expect(await waiting).toMatchObject({
      ok: true,
      task: { status: "completed" },
      envelope: { status: "success", data: { label: "redis-done", done: true } },
    });
  });

  /** Starts a replica in a child process running `tool` for `label`; answers it and its task's id. */
  const childReplica = async (tool: string, label: string) => {
    const child = spawn(
      process.execPath,
      [
        "--no-warnings",
        "--experimental-transform-types",
        "--conditions=@quiver/source",
        "--import",
        fileURLToPath(new URL("./fixtures/register-ts.mjs", import.meta.url)),
        fileURLToPath(new URL("./fixtures/replica.ts", import.meta.url)),
      ],
      {
        env: { ...process.env, REDIS_URL, PREFIX: prefix, LABEL: label, TOOL: tool },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const [line] = (await once(child.stdout, "data")) as [Buffer];
    return { child, id: (JSON.parse(line.toString()) as { id: string }).id };
  };

  it("a replica killed mid-task: once its lease runs out the task fails, saying why", async () => {
    const { child, id } = await childReplica("slow_job", "killed");
    const b = replica();
    expect(await b.get(id, "alice")).toMatchObject({ ok: true, task: { status: "working" } });
    child.kill("SIGKILL");
    await once(child, "exit");
    await eventually(async () => {
      const got = await b.get(id, "alice");
      return got.ok && got.task.status === "failed";
    });
    expect(await b.get(id, "alice")).toMatchObject({ ok: true, task: { statusMessage: ORPHAN_MESSAGE } });
    expect(await b.result(id, "alice")).toMatchObject({ ok: false, code: "failed" });
  });

  it("a replica killed after its tool stored a resume point: another replica takes the task over", async () => {
    const { child, id } = await childReplica("resumable_job", "taken-over");
    const b = replica();
    await eventually(async () => {
      const got = await b.get(id, "alice");
      return got.ok && got.task.progress !== undefined;
    });
    child.kill("SIGKILL");
    await once(child, "exit");
    // B's read finds the lease gone: it claims it, and re-runs the tool from the stored point.
    await eventually(async () => {
      const got = await b.get(id, "alice");
      return got.ok && got.task.status === "completed";
    });
    expect(resumed.get("taken-over")).toEqual({ job: "job-taken-over" });
    expect(await b.result(id, "alice")).toMatchObject({
      ok: true,
      envelope: {
        status: "success",
        data: { label: "taken-over", done: true, resumedFrom: "job-taken-over" },
      },
    });
  });
});
