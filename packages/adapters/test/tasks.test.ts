import type { DynamicStructuredTool } from "@langchain/core/tools";
import { type Catalog, memoryDriver, type ToolProgress, type ToolResult } from "@quiver/core";
import { createTaskRunner, type TaskRunner } from "@quiver/tasks";
import { useCatalog } from "@quiver/testing";
import { simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AiSdkTaskUpdate, toAiSdkTools } from "../src/ai-sdk.js";
import { createToolTasks } from "../src/index.js";
import { toLangChainTools } from "../src/langchain.js";
import { holdState, taskPlugin } from "./fixtures/task-plugin.js";

// Task-capable tools through the adapters, on a real @quiver/tasks runner over the catalog's store:
// start, poll and cancel; the AI SDK streams progress as preliminary results; LangChain follows.
const store = memoryDriver();
const makeCatalog = useCatalog({ env: {}, store });
let catalog: Catalog;
let runner: TaskRunner;
const ALICE = { principal: "alice", id: "conversation-1" };

beforeEach(() => {
  catalog = makeCatalog();
  catalog.register(taskPlugin);
  runner = createTaskRunner({
    catalog,
    store,
    // The tools' own task deadlines (`task: { deadline }`), as a host wires them.
    toolDeadlineMs: (tool) => catalog.list().find((t) => t.name === tool)?.taskDeadlineMs,
    progressIntervalMs: 1,
    pollIntervalMs: 10,
    sweepIntervalMs: 0,
  });
});
afterEach(() => runner.close());

describe("createToolTasks: start, poll and cancel", () => {
  it("starts a task-capable tool, polls it to the envelope the plain call gives; others do not start", async () => {
    const tasks = createToolTasks(catalog, runner, { session: ALICE });
    expect(tasks.mayRunAsTask("tasks_count")).toBe(true);
    expect(tasks.mayRunAsTask("tasks_plain")).toBe(false);
    await expect(tasks.start("tasks_plain", { n: 1 })).rejects.toThrow(/may not run as a task/);
    const task = await tasks.start("tasks_count", { steps: 2, gapMs: 20 });
    expect(task.deadlineAt - task.createdAt).toBe(60_000);
    expect((await tasks.poll(task.id)).envelope).toBeUndefined();
    let polled = await tasks.poll(task.id);
    while (!polled.envelope)
      polled = await new Promise((r) => setTimeout(r, 10)).then(() => tasks.poll(task.id));
    expect(polled.task.status).toBe("completed");
    expect(polled.envelope).toMatchObject({ status: "success", data: { counted: 2 } });
    // The task is alice's: bob's tasks see nothing of it.
    await expect(
      createToolTasks(catalog, runner, { session: { principal: "bob" } }).poll(task.id),
    ).rejects.toThrow(/No task/);
  });

  it("cancels a working task: its call is aborted, and it answers an envelope saying so", async () => {
    const tasks = createToolTasks(catalog, runner, { session: ALICE });
    const aborted = holdState.aborted;
    const task = await tasks.start("tasks_hold", {});
    await expect.poll(async () => (await tasks.poll(task.id)).task.progress?.message).toBe("holding");
    expect((await tasks.cancel(task.id)).status).toBe("cancelled");
    await expect.poll(() => holdState.aborted).toBe(aborted + 1);
    const { envelope } = await tasks.poll(task.id);
    expect(envelope).toMatchObject({
      status: "unavailable",
      metadata: { tool: "tasks_hold", plugin: "tasks" },
    });
    expect(envelope?.message).toMatch(/was cancelled/);
  });
});

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A streaming model that first calls `toolName` with `input`, then answers with text. */
const streamingModel = (toolName: string, input: unknown) =>
  new MockLanguageModelV4({
    doStream: [
      {
        stream: simulateReadableStream({
          chunks: [
            { type: "stream-start", warnings: [] },
            { type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
          ],
        }),
      },
      {
        stream: simulateReadableStream({
          chunks: [
            { type: "stream-start", warnings: [] },
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Counted." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
          ],
        }),
      },
    ],
  });

describe("toAiSdkTools with tasks", () => {
  it("streams the task's progress as preliminary results, then the envelope as the final one", async () => {
    const tools = toAiSdkTools(catalog, { session: ALICE, tasks: runner });
    const model = streamingModel("tasks_count", { steps: 3, gapMs: 80 });
    const result = streamText({
      model,
      tools,
      prompt: "Count to three.",
      stopWhen: ({ steps }) => steps.length >= 2,
    });
    const preliminary: AiSdkTaskUpdate[] = [];
    const final: ToolResult[] = [];
    for await (const part of result.fullStream) {
      if (part.type !== "tool-result") continue;
      // The AI SDK streams every yield as preliminary (the last one too), then the last as final.
      if (part.preliminary && "task" in (part.output as object))
        preliminary.push(part.output as AiSdkTaskUpdate);
      else if (!part.preliminary) final.push(part.output as ToolResult);
    }
    const messages = preliminary.map((p) => p.task.progress?.message).filter(Boolean);
    expect(messages).toEqual(expect.arrayContaining(["step 1 of 3", "step 2 of 3"]));
    expect(preliminary.every((p) => p.task.tool === "tasks_count" && p.task.status === "working")).toBe(true);
    expect(final).toHaveLength(1);
    expect(final[0]).toMatchObject({ status: "success", data: { counted: 3 } });
    expect(await result.text).toBe("Counted.");
    // The model read the envelope, not a task update.
    const prompt = model.doStreamCalls[1]?.prompt ?? [];
    const toolMessage = prompt.find((m) => m.role === "tool");
    expect(JSON.stringify(toolMessage)).toContain('"counted":3');
    // The call ran as alice's task.
    expect((await runner.list("alice")).tasks.map((t) => t.tool)).toContain("tasks_count");
  });

  it("an aborted step cancels the task (its work stops); a plain tool is still called directly", async () => {
    const tools = toAiSdkTools(catalog, { session: ALICE, tasks: runner });
    const controller = new AbortController();
    const aborted = holdState.aborted;
    const run = tools.tasks_hold!.execute!(
      {},
      { toolCallId: "c", messages: [], abortSignal: controller.signal, context: {} },
    );
    const updates = run as AsyncIterable<ToolResult | AiSdkTaskUpdate>;
    const seen: Array<ToolResult | AiSdkTaskUpdate> = [];
    for await (const out of updates) {
      seen.push(out);
      if ("task" in out && out.task.progress?.message === "holding") controller.abort();
    }
    await expect.poll(() => holdState.aborted).toBe(aborted + 1);
    expect(seen.at(-1)).toMatchObject({ status: "unavailable" });
    const plain = await tools.tasks_plain!.execute!({ n: 4 }, { toolCallId: "p", messages: [], context: {} });
    expect((plain as ToolResult).data).toEqual({ n: 4 });
  });
});

describe("toLangChainTools with tasks", () => {
  it("runs a task-capable tool as a task, its progress to onProgress, and answers the envelope", async () => {
    const progress: ToolProgress[] = [];
    const tools = toLangChainTools(catalog, {
      session: ALICE,
      tasks: runner,
      onProgress: (_tool, p) => progress.push(p),
    });
    const count = tools.find((t) => t.name === "tasks_count") as DynamicStructuredTool;
    const text = await count.invoke({ steps: 2, gapMs: 80 });
    expect(JSON.parse(text as string)).toMatchObject({ status: "success", data: { counted: 2 } });
    expect(progress.map((p) => p.message)).toContain("step 1 of 2");
    expect((await runner.list("alice")).tasks.map((t) => t.tool)).toContain("tasks_count");
  });
});
