import { type Catalog, createCatalog, memoryDriver, type StoreDriver } from "@quiver/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTaskRunner, ORPHAN_MESSAGE, type TaskRunner, type TaskRunnerOptions } from "../src/index.js";
import { aborted, release, started, taskPlugin } from "./fixtures/task-plugin.js";
import { essence, eventually } from "./helpers.js";

let store: StoreDriver;
const catalogs: Catalog[] = [];
const runners: TaskRunner[] = [];
let labels = 0;
/** A label no other test uses. */
const label = () => `run-${++labels}`;

/** One replica: its own catalog and runner over the shared store. */
const replica = (options: Partial<TaskRunnerOptions> = {}) => {
  const catalog = createCatalog({ store });
  catalog.register(taskPlugin);
  catalogs.push(catalog);
  const runner = createTaskRunner({ catalog, store, progressIntervalMs: 0, sweepIntervalMs: 0, ...options });
  runners.push(runner);
  return { catalog, runner };
};

beforeEach(() => {
  store = memoryDriver();
});

afterEach(async () => {
  for (const r of runners.splice(0)) await r.close();
  for (const c of catalogs.splice(0)) await c.close();
});

describe("createTaskRunner over one memory driver (two replicas)", () => {
  it("writes the task before start answers: another replica sees it working at once", async () => {
    const a = replica();
    const b = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice", ttlMs: 60_000 });
    expect(task).toMatchObject({ tool: "slow_job", status: "working", ttlMs: 60_000, pollIntervalMs: 1_000 });
    expect(task.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(task.deadlineAt - task.createdAt).toBe(300_000);
    const seen = await b.runner.get(task.id, "alice");
    expect(seen).toMatchObject({ ok: true, task: { id: task.id, status: "working" } });
    release(l);
  });

  it("writes progress to the record and settles to the envelope a plain call gives", async () => {
    const a = replica();
    const b = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice", pollIntervalMs: 20 });
    await eventually(async () => {
      const got = await b.runner.get(task.id, "alice");
      return got.ok && got.task.progress?.progress === 1;
    });
    const got = await b.runner.get(task.id, "alice");
    expect(got.ok && got.task.progress).toEqual({ progress: 1, total: 2, message: `${l}: waiting` });
    expect(await b.runner.result(task.id, "alice")).toMatchObject({ ok: false, code: "working" });

    const waiting = b.runner.result(task.id, "alice", { wait: true });
    release(l);
    const answer = await waiting;
    const plain = a.catalog.call("slow_job", { label: l }, { session: { principal: "alice" } });
    await eventually(() => started.has(l));
    release(l);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.task.status).toBe("completed");
    expect(essence(answer.envelope)).toEqual(essence(await plain));
    expect(answer.envelope.data).toEqual({ label: l, done: true });
  });

  it("a failing tool ends the task failed, with its envelope as the result", async () => {
    const a = replica();
    const task = await a.runner.start("refuse", { why: "no" }, { principal: "alice" });
    const answer = await a.runner.result(task.id, "alice", { wait: true });
    expect(answer).toMatchObject({
      ok: true,
      task: { status: "failed", statusMessage: "Refused: no" },
      envelope: { status: "error", error: { kind: "out_of_domain" } },
    });
  });

  it("another principal sees nothing of a task: get, result, cancel and list answer not found", async () => {
    const a = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice" });
    for (const answer of [
      await a.runner.get(task.id, "bob"),
      await a.runner.result(task.id, "bob"),
      await a.runner.cancel(task.id, "bob"),
      await a.runner.get(task.id),
    ]) {
      expect(answer).toMatchObject({ ok: false, code: "not_found" });
      expect(JSON.stringify(answer)).not.toContain("alice");
    }
    expect((await a.runner.list("bob")).tasks).toEqual([]);
    expect((await a.runner.list("alice")).tasks.map((t) => t.id)).toEqual([task.id]);
    expect(await a.runner.get(task.id, "alice")).toMatchObject({ ok: true, task: { status: "working" } });
    release(l);
  });

  it("lists a caller's tasks newest first, a page at a time", async () => {
    const a = replica();
    const first = await a.runner.start("refuse", { why: "1" }, { principal: "carol" });
    await a.runner.result(first.id, "carol", { wait: true });
    const second = await a.runner.start("refuse", { why: "2" }, { principal: "carol" });
    const page = await a.runner.list("carol", { limit: 1 });
    expect(page.tasks.map((t) => t.id)).toEqual([second.id]);
    expect(page.nextCursor).toBeDefined();
    const next = await a.runner.list("carol", { limit: 1, cursor: page.nextCursor as string });
    expect(next).toEqual({ tasks: [expect.objectContaining({ id: first.id, status: "failed" })] });
  });

  it("without a principal the id alone guards a task, and list shows nothing", async () => {
    const a = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l });
    expect(await a.runner.get(task.id)).toMatchObject({ ok: true });
    expect((await a.runner.list()).tasks).toEqual([]);
    release(l);
  });

  it("a cancel sent to replica B stops the work running on replica A", async () => {
    const a = replica();
    const b = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice" });
    await eventually(() => started.has(l));
    const cancelled = await b.runner.cancel(task.id, "alice");
    expect(cancelled).toMatchObject({ ok: true, task: { status: "cancelled" } });
    await eventually(() => aborted.has(l));
    expect(await a.runner.result(task.id, "alice", { wait: true })).toMatchObject({
      ok: false,
      code: "cancelled",
    });
    // The run's own end does not overwrite the cancel.
    expect(await b.runner.get(task.id, "alice")).toMatchObject({ ok: true, task: { status: "cancelled" } });
    expect(await b.runner.cancel(task.id, "alice")).toMatchObject({ ok: false, code: "finished" });
  });

  it("a task past its deadline is stopped and fails, saying so", async () => {
    const a = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice", deadlineMs: 50 });
    const answer = await a.runner.result(task.id, "alice", { wait: true });
    expect(aborted.has(l)).toBe(true);
    expect(answer.ok && answer.task.status).toBe("failed");
    expect(answer.ok && answer.task.statusMessage).toContain("reached its deadline");
  });

  it("a tool's own deadline sits between the runner's default and the request's", async () => {
    const a = replica({
      deadlineMs: 90_000,
      toolDeadlineMs: (tool) => (tool === "slow_job" ? 600_000 : undefined),
    });
    const l = label();
    const own = await a.runner.start("slow_job", { label: l }, { principal: "alice" });
    expect(own.deadlineAt - own.createdAt).toBe(600_000);
    const asked = await a.runner.start("slow_job", { label: l }, { principal: "alice", deadlineMs: 5_000 });
    expect(asked.deadlineAt - asked.createdAt).toBe(5_000);
    await a.runner.cancel(own.id, "alice");
    await a.runner.cancel(asked.id, "alice");
  });

  it("a task whose lease ran out fails on read with a clear message, and its replica stops it", async () => {
    const a = replica({ leaseMs: 60 });
    const b = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice" });
    await eventually(() => started.has(l));
    // As when replica A stops renewing: its lease is gone.
    await store.delete(`task-lease:${task.id}`);
    const got = await b.runner.get(task.id, "alice");
    expect(got).toMatchObject({ ok: true, task: { status: "failed", statusMessage: ORPHAN_MESSAGE } });
    // A notices at its next renewal and stops its run without overwriting the record.
    await eventually(() => aborted.has(l));
    expect(await a.runner.result(task.id, "alice")).toMatchObject({ ok: false, code: "failed" });
  });

  it("the sweep ends orphaned working tasks without anyone reading them", async () => {
    const a = replica({ leaseMs: 60_000 });
    const b = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice" });
    await store.delete(`task-lease:${task.id}`);
    expect(await a.runner.sweep()).toBe(0); // A still runs it: not an orphan to A
    expect(await b.runner.sweep()).toBe(1);
    expect(await a.runner.get(task.id, "alice")).toMatchObject({ ok: true, task: { status: "failed" } });
    release(l);
  });

  it("a task whose result expired answers a clear error", async () => {
    const a = replica();
    const task = await a.runner.start("refuse", { why: "x" }, { principal: "alice", ttlMs: 30 });
    await a.runner.result(task.id, "alice", { wait: true });
    await eventually(async () => (await a.runner.result(task.id, "alice")).ok === false);
    const answer = await a.runner.result(task.id, "alice");
    expect(answer).toMatchObject({ ok: false, code: "expired", task: { status: "failed" } });
    expect(answer.ok ? "" : answer.message).toMatch(/expired at .*call the tool again/);
  });

  it("the sweep clears the marker of a task cancelled after its replica lost it", async () => {
    const a = replica({ leaseMs: 60 });
    const b = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice" });
    await eventually(() => started.has(l));
    await store.delete(`task-lease:${task.id}`);
    await eventually(() => aborted.has(l)); // A lost the lease: it stopped and wrote nothing
    expect(await b.runner.cancel(task.id, "alice")).toMatchObject({
      ok: true,
      task: { status: "cancelled" },
    });
    expect(await store.keys("task-live:")).toEqual([`task-live:${task.id}`]);
    expect(await b.runner.sweep()).toBe(0);
    expect(await store.keys("task-live:")).toEqual([]);
    expect(await b.runner.get(task.id, "alice")).toMatchObject({ ok: true, task: { status: "cancelled" } });
  });

  it("a closed runner starts no more tasks", async () => {
    const a = replica();
    await a.runner.close();
    await expect(a.runner.start("refuse", { why: "late" })).rejects.toThrow(/closed/);
  });

  it("close() stops its runs: they fail, saying the replica shut down", async () => {
    const a = replica();
    const b = replica();
    const l = label();
    const task = await a.runner.start("slow_job", { label: l }, { principal: "alice" });
    await eventually(() => started.has(l));
    await a.runner.close();
    const got = await b.runner.get(task.id, "alice");
    expect(got.ok && got.task.status).toBe("failed");
    expect(got.ok && got.task.statusMessage).toContain("shut down");
  });
});
