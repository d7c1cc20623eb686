// Profiles cache misses with every policy on: node --cpu-prof bench/core/_profile-miss.mjs
import { createCatalog, definePlugin, defineTool } from "@quiver/core";
import { z } from "zod";
import { FULL_POLICY } from "./tool-overhead.mjs";

const input = z.object({
  q: z.string().describe("Any text"),
  n: z.number().int().optional().describe("A number"),
});
const output = z.object({ ok: z.boolean() });
const policy = { ...FULL_POLICY, ...JSON.parse(process.env.POLICY ?? "{}") };
const tool = defineTool({
  name: "noop",
  description: "noop",
  category: "computational_service",
  input,
  output,
  annotations: { readOnly: true, openWorld: true },
  policy,
  run: async () => ({ ok: true }),
});
const catalog = createCatalog();
catalog.register(definePlugin({ specificationVersion: "v1", id: "bench", version: "1.0.0", tools: [tool] }));
const session = { session: { id: "bench", principal: "bench" } };
const N = Number(process.env.N ?? 60000);
for (let i = 0; i < 40000; i++) await catalog.call("noop", { q: `w${i}` }, session);
const t = process.cpuUsage();
for (let i = 0; i < N; i++) await catalog.call("noop", { q: `x${i}` }, session);
const u = process.cpuUsage(t);
console.log("us/call", ((u.user + u.system) / N).toFixed(2));
console.log(JSON.stringify(await catalog.call("noop", { q: "y" }, session)));
await catalog.close();
