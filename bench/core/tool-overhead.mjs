// Per-call cost of a no-op tool through Quiver's full runtime (validation and every policy on), on a
// cache miss and on cache hits with 1, 1,000 and 100,000 entries in the cache, beside a bare call,
// zod parse + call, and the peers' own tool wrappers, in one run; then an ablation (all policies on,
// each one off, none, a tracer installed), and Effect's own building blocks on their own. Every table
// is timed in interleaved rounds, in CPU time (see `timeInterleaved`). The run ends with the runtime
// issue's three targets as PASS/FAIL lines, each a ratio of two rows measured in the same run. Every
// call but a cache hit runs the tool's one Effect pipeline in a fiber; where its time goes, and the
// figures behind the choices below, are in bench/README.md.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tool as langchainTool } from "@langchain/core/tools";
import { createTool as mastraTool } from "@mastra/core/tools";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { createCatalog, definePlugin, defineTool } from "@quiver/core";
import { tool as aiTool } from "ai";
import { z } from "zod";
import { median, table } from "../lib/measure.mjs";

const input = z.object({
  q: z.string().describe("Any text"),
  n: z.number().int().optional().describe("A number"),
});
const output = z.object({ ok: z.boolean() });
const noop = async () => ({ ok: true });

/** Cache sizes the hit rows are timed at. */
const HIT_SIZES = [1, 1_000, 100_000];
const entries = (n) => `${n.toLocaleString("en")} ${n === 1 ? "entry" : "entries"}`;

/** Every policy on: what the miss rows (and `_profile-miss.mjs`) time. */
export const FULL_POLICY = {
  timeout: "10s",
  retry: { times: 2, base: "100ms" },
  cache: { ttl: "1h", capacity: 100_000 },
  rateLimit: { limit: 1_000_000_000, window: "1 minute" },
  breaker: { failures: 5, openFor: "30s" },
  maxOutputChars: 10_000,
};
const NO_POLICY = {
  timeout: Number.POSITIVE_INFINITY,
  retry: false,
  cache: false,
  rateLimit: false,
  breaker: false,
  maxOutputChars: Number.POSITIVE_INFINITY,
};
/** All on, each one off, none: what each policy adds to a cache-miss call. */
const VARIANTS = [
  ["all policies on (cache miss)", {}],
  ["− cache", { cache: false }],
  ["− rate limit", { rateLimit: false }],
  ["− circuit breaker", { breaker: false }],
  ["− timeout", { timeout: Number.POSITIVE_INFINITY }],
  ["− retry", { retry: false }],
  ["− output budget", { maxOutputChars: Number.POSITIVE_INFINITY }],
  ["none (validation, metrics, envelope)", NO_POLICY],
];

const noopTool = (policy) =>
  defineTool({
    name: "noop",
    description: "Does nothing; measures the runtime's own cost.",
    category: "computational_service",
    input,
    output,
    annotations: { readOnly: true, openWorld: true },
    policy,
    run: noop,
  });

const catalogWith = (policy, options) => {
  const catalog = createCatalog(options);
  catalog.register(
    definePlugin({ specificationVersion: "v1", id: "bench", version: "1.0.0", tools: [noopTool(policy)] }),
  );
  return catalog;
};

/**
 * Times several cases in interleaved rounds (each round runs every case once, in turn) and returns
 * the median per call of each. Time is this process's CPU time (user + system, GC threads
 * included), not wall time: on a shared machine the wall clock also counts the time other
 * processes hold the cores, which swings results by 2–3×; CPU time of the same work barely moves.
 *
 * Each case is first run for as many calls as it is then timed for, so what is timed is the steady
 * state: CPU time counts V8's compiler threads too, and a fresh process compiles for its first tens
 * of thousands of calls (a short warm-up mixed compilation into the medians).
 *
 * Cases next to each other with the same `group` take turns at going first (the order within the
 * group rotates each round): whichever case follows one that left garbage behind pays for it.
 */
const timeInterleaved = async (cases, { iterations, rounds }) => {
  const state = cases.map(() => ({ i: 0, perRound: [] }));
  for (const [k, c] of cases.entries()) {
    const warmup = rounds * (c.iterations ?? iterations);
    for (let w = 0; w < warmup; w++) await c.fn(state[k].i++);
  }
  for (let r = 0; r < rounds; r++) {
    for (const k of roundOrder(cases, r)) {
      const c = cases[k];
      const s = state[k];
      const n = c.iterations ?? iterations;
      const start = process.cpuUsage();
      for (let j = 0; j < n; j++) await c.fn(s.i++);
      const used = process.cpuUsage(start);
      s.perRound.push(((used.user + used.system) * 1000) / n);
    }
  }
  return cases.map((c, k) => ({ name: c.name, ns: median(state[k].perRound) }));
};

/** The order of round `r`: each run of neighbouring cases with the same `group` rotated by `r`. */
const roundOrder = (cases, r) => {
  const order = [];
  for (let k = 0; k < cases.length; ) {
    let end = k + 1;
    while (cases[k].group && end < cases.length && cases[end].group === cases[k].group) end++;
    const run = cases.slice(k, end).map((_, j) => k + j);
    const turn = r % run.length;
    order.push(...run.slice(turn), ...run.slice(0, turn));
    k = end;
  }
  return order;
};

/** Effect, as @quiver/core resolves it (the bench does not depend on it directly). */
const loadEffect = async () => {
  const coreEntry = fileURLToPath(import.meta.resolve("@quiver/core"));
  const require = createRequire(`${dirname(coreEntry)}/`);
  const load = (id) => import(pathToFileURL(require.resolve(id)).href);
  return { ...(await load("effect")), persistence: await load("effect/persistence") };
};

/** A recording tracer, standing in for an OpenTelemetry exporter. */
const tracerLayer = (effect) => {
  const { Layer, Tracer } = effect;
  const tracer = Tracer.make({ span: (options) => new Tracer.NativeSpan(options) });
  return Layer.succeed(Tracer.Tracer, tracer);
};

/** Effect's building blocks alone, run on a prebuilt context: the floor under the runtime. */
const effectFloor = async (effect, opts) => {
  const { Cache, Context, Duration, Effect, Layer, ManagedRuntime, Scope, persistence } = effect;
  const { CircuitBreaker, RateLimiter } = persistence;
  const runtime = ManagedRuntime.make(
    RateLimiter.layer.pipe(
      Layer.provideMerge(Layer.mergeAll(RateLimiter.layerStoreMemory, CircuitBreaker.layerStoreMemory())),
    ),
  );
  const context = await runtime.context();
  const run = Effect.runPromiseExitWith(context);
  const scope = Scope.makeUnsafe();
  const breaker = runtime.runSync(
    CircuitBreaker.make({
      tripPolicy: CircuitBreaker.consecutive(5),
      openDuration: Duration.millis(30_000),
    }).pipe(Scope.provide(scope)),
  );
  const consume = Context.get(context, RateLimiter.RateLimiter).consume({
    key: "bench",
    limit: 1_000_000_000,
    window: 60_000,
  });
  const promise = Effect.promise(() => noop());
  const timed = Effect.timeoutOrElse(promise, { duration: 10_000, orElse: () => Effect.void });
  const guarded = breaker.execute(promise, { key: "bench" });
  const makeCache = (lookup = promise) =>
    Effect.runSync(Cache.make({ lookup: () => lookup, capacity: 100_000, timeToLive: "1 hour" }));
  // The runtime's composition with none of Quiver's code: cache → rate limit → breaker → timeout.
  const composed = makeCache(Effect.andThen(consume, breaker.execute(timed, { key: "bench" })));
  const misses = makeCache();
  const small = makeCache();
  const large = makeCache();
  for (let i = 0; i < 16_000; i++) await run(Cache.get(large, `k${i}`));
  await run(Cache.get(small, "same"));
  await run(Cache.get(large, "same"));
  const cases = [
    ["fiber + Effect.promise (run on a prebuilt context)", () => run(promise)],
    ["+ Effect.timeoutOrElse", () => run(timed)],
    ["+ CircuitBreaker.execute", () => run(guarded)],
    ["RateLimiter consume (memory store)", () => run(consume)],
    ["Cache.get miss (lookup = Effect.promise)", (i) => run(Cache.get(misses, `m${i}`))],
    ["Cache.get hit, 1 entry", () => run(Cache.get(small, "same"))],
    [
      "all four composed: Cache.get miss → consume → breaker → timeout → promise",
      (i) => run(Cache.get(composed, `c${i}`)),
    ],
    ["Cache.get hit, 16k entries (same key each time)", () => run(Cache.get(large, "same"))],
  ].map(([name, fn]) => ({ name, fn }));
  const rows = await timeInterleaved(cases, opts);
  await runtime.runPromise(Scope.close(scope, effect.Exit.void));
  await runtime.dispose();
  return rows;
};

export async function run({ iterations = 2_000, rounds = 7 } = {}) {
  const opts = { iterations, rounds };
  const cases = [];
  const add = (name, fn, extra = {}) => cases.push({ name, fn, ...extra });

  add("bare function call", (i) => noop({ q: `x${i}` }));
  add("zod parse + call", (i) => noop(input.parse({ q: `x${i}` })));

  const catalog = catalogWith(FULL_POLICY);
  const session = { session: { id: "bench", principal: "bench" } };
  // Hits on one hot key with 1, 1,000 and 100,000 entries in the cache: a lookup must cost the same.
  const hitCatalogs = [];
  for (const size of HIT_SIZES) {
    const hits = catalogWith(FULL_POLICY);
    hitCatalogs.push(hits);
    for (let i = 1; i < size; i++) await hits.call("noop", { q: `fill${i}` }, session);
    await hits.call("noop", { q: "same" }, session);
    // Thirty times the iterations: a hit is short, and the three sizes are compared to within 1.2×;
    // with fewer, a collection landing in one size's rounds set it apart.
    add(
      `quiver full runtime (cache hit, ${entries(size)})`,
      () => hits.call("noop", { q: "same" }, session),
      { iterations: iterations * 30, group: "hits" },
    );
  }

  // The miss row after the three hit rows: a case pays for the garbage the case before it left, and
  // the three sizes must be timed alike (one of them right after the misses would not be).
  add("quiver full runtime (cache miss)", (i) => catalog.call("noop", { q: `x${i}` }, session));

  const lc = langchainTool(noop, { name: "noop", description: "noop", schema: input });
  add("LangChain.js tool().invoke", (i) => lc.invoke({ q: `x${i}` }));

  const ai = aiTool({ description: "noop", inputSchema: input, execute: noop });
  add("Vercel AI SDK tool().execute", (i) => ai.execute({ q: `x${i}` }, { toolCallId: "t", messages: [] }));

  const mastra = mastraTool({
    id: "noop",
    description: "noop",
    inputSchema: input,
    outputSchema: output,
    execute: noop,
  });
  add("Mastra createTool().execute", (i) => mastra.execute({ q: `x${i}` }, {}));

  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("noop", { description: "noop", inputSchema: input }, async () => ({
    content: [{ type: "text", text: "ok" }],
  }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientTransport);
  add("MCP SDK in-memory callTool", (i) => client.callTool({ name: "noop", arguments: { q: `x${i}` } }), {
    iterations: Math.max(200, iterations / 4),
  });
  const rows = await timeInterleaved(cases, opts);
  await client.close();
  await catalog.close();
  for (const hits of hitCatalogs) await hits.close();

  // Ablation: one catalog per variant, all timed in the same interleaved rounds.
  const effect = await loadEffect();
  const variants = VARIANTS.map(([name, override]) => ({
    name,
    catalog: catalogWith({ ...FULL_POLICY, ...override }),
  }));
  variants.push({
    name: "all policies on, cache hit (1 entry)",
    catalog: catalogWith(FULL_POLICY),
    hit: true,
  });
  variants.push({
    name: "all policies on + tracer installed",
    catalog: catalogWith(FULL_POLICY, { layer: tracerLayer(effect) }),
  });
  const ablation = await timeInterleaved(
    variants.map((v) => ({
      name: v.name,
      fn: v.hit
        ? () => v.catalog.call("noop", { q: "same" }, session)
        : (i) => v.catalog.call("noop", { q: `x${i}` }, session),
    })),
    // Three times the rounds: each policy's cost is the difference of two medians, which a few noisy
    // rounds move.
    { ...opts, rounds: opts.rounds * 3 },
  );
  for (const v of variants) await v.catalog.close();
  const floor = await effectFloor(effect, opts);

  const base = rows.find((r) => r.name === "zod parse + call").ns;
  const lcNs = rows.find((r) => r.name.startsWith("LangChain")).ns;
  const quiver = rows.find((r) => r.name.includes("cache miss")).ns;
  const hitNs = HIT_SIZES.map(
    (size) => rows.find((r) => r.name.includes(`(cache hit, ${entries(size)})`)).ns,
  );
  const format = (r) => ({
    benchmark: r.name,
    "median µs/call": (r.ns / 1000).toFixed(2),
    "× zod+call": (r.ns / base).toFixed(1),
  });
  const out = rows.map(format);
  const allOn = ablation[0].ns;
  const ablationRows = ablation.map((r, k) => ({
    ...format(r),
    "vs all on (µs)": k === 0 ? "" : ((r.ns - allOn) / 1000).toFixed(2),
  }));
  const floorRows = floor.map(format);
  const columns = ["benchmark", "median µs/call", "× zod+call"];
  const verdict = targets({ base, lcNs, quiver, hitNs, ablation, allOn });
  return {
    title: "Tool call overhead (no-op tool)",
    table: [
      table(out, columns),
      "",
      "Ablation (interleaved rounds; a negative delta is what removing that policy saves)",
      table(ablationRows, [...columns, "vs all on (µs)"]),
      "",
      "Effect building blocks alone (interleaved rounds)",
      table(floorRows, columns),
    ].join("\n"),
    notes: verdict,
    rows: [
      ...out,
      ...ablationRows.map((r) => ({ ...r, benchmark: `ablation: ${r.benchmark}` })),
      ...floorRows.map((r) => ({ ...r, benchmark: `effect: ${r.benchmark}` })),
    ],
  };
}

/** The runtime issue's three targets, each a PASS/FAIL line computed from rows of this run. */
const targets = ({ base, lcNs, quiver, hitNs, ablation, allOn }) => {
  const line = (ok, text) => `target ${ok ? "PASS" : "FAIL"}: ${text}`;
  const us = (ns) => (ns / 1000).toFixed(1);
  const lines = [
    line(
      quiver <= lcNs,
      `every policy on, cache miss ≤ 1.0× LangChain tool().invoke: ${(quiver / lcNs).toFixed(2)}× (${us(quiver)} vs ${us(lcNs)} µs)`,
    ),
  ];
  HIT_SIZES.forEach((size, k) => {
    lines.push(
      line(
        hitNs[k] <= 20 * base,
        `cache hit with ${entries(size)} ≤ 20× zod parse + call: ${(hitNs[k] / base).toFixed(1)}× (${us(hitNs[k])} µs)`,
      ),
    );
  });
  const spread = Math.max(...hitNs) / Math.min(...hitNs);
  lines.push(
    line(
      spread <= 1.2,
      `cache hit the same at 1, 1,000 and 100,000 entries (within 1.2×): ${spread.toFixed(2)}×`,
    ),
  );
  const traced = ablation.find((r) => r.name.includes("tracer installed")).ns;
  lines.push(
    line(
      traced <= 1.5 * allOn,
      `a tracer installed ≤ 1.5× the same call without one: ${(traced / allOn).toFixed(2)}× (${us(traced)} vs ${us(allOn)} µs)`,
    ),
  );
  return lines;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(`${r.title}\n${r.table}\n${r.notes.join("\n")}`);
}
