#!/usr/bin/env node
// `pnpm bench:load [--duration 60] [--clients 200] [--sample 5] [--churn 25] [--upstream-ms 0]
// [--only quiver|bare] [--gc] [--snapshots <dir>]`: a load and soak run of `quiver serve` beside a
// bare MCP SDK server (bench/README.md has the details).
//
// One emulated upstream (openFDA, Context7, Perplexity; @quiver/testing's emulator, in this process);
// then, one server at a time, the server in a child process (preloaded with support/probe.mjs for
// event-loop delay and heap) and the load generator in another (support/load-client.mjs: N MCP SDK
// clients, each initialize + a loop of tools/call through three plugins' tools, a new session every
// `churn` calls). Every `sample` seconds it prints the server's resident memory (/proc VmRSS), heap,
// event-loop delay and the window's calls/s and latency; at the end throughput, p50/p99, errors, the
// RSS and live-heap slopes over the second half of the run (a leak grows steadily there) and the
// quiver/bare ratios.
// Every process it starts is stopped before it exits, also on Ctrl-C. Not part of `pnpm bench` or CI.
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { table } from "../lib/measure.mjs";
import { CLI, cpuMsOf, REPO, readProbe, rssOf, startBare, startQuiver, stop } from "./support/servers.mjs";
import { startUpstream } from "./support/upstream.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const MB = 1024 * 1024;
/** Results quiver serve keeps at most for this workload: 3 tools × 1,000 cached + 5,000 stale. */
const QUIVER_BOUNDED_ENTRIES = 8_000;

/** Least-squares slope of y over x. */
const slope = (points) => {
  if (points.length < 2) return NaN;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? NaN : num / den;
};

const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");

/** Runs the load against one started server; resolves with its samples and totals. */
const drive = async (server, opts, track) => {
  const client = fork(join(HERE, "support", "load-client.mjs"), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  track(client);
  // One queue of messages from the generator; `next(type)` takes the first of that type (or fails
  // when the generator reports a failure or exits without sending it).
  const messages = [];
  const waiters = new Set();
  let exited = false;
  const wake = () => {
    for (const w of waiters) w();
  };
  client.on("message", (m) => {
    messages.push(m);
    wake();
  });
  client.once("exit", () => {
    exited = true;
    wake();
  });
  const next = (type) =>
    new Promise((resolve, reject) => {
      const look = () => {
        const i = messages.findIndex((m) => m.type === type || m.type === "failed");
        if (i >= 0) {
          waiters.delete(look);
          const [m] = messages.splice(i, 1);
          if (m.type === "failed") reject(new Error(`load generator failed: ${m.message}`));
          else resolve(m);
        } else if (exited) {
          waiters.delete(look);
          reject(new Error(`load generator exited without "${type}"`));
        }
      };
      waiters.add(look);
      look();
    });
  try {
    const rss0 = rssOf(server.pid);
    client.send({
      type: "start",
      url: server.url,
      clients: opts.clients,
      durationMs: opts.duration * 1000,
      churn: opts.churn,
    });
    await next("ready");
    const started = performance.now();
    const cpu0 = cpuMsOf(server.pid);
    const clientCpu0 = cpuMsOf(client.pid);
    const samples = [];
    const done = next("done");
    let finished = false;
    done.then(
      () => (finished = true),
      () => (finished = true),
    );
    let last = started;
    let snapshots = 0;
    while (!finished) {
      await Promise.race([new Promise((r) => setTimeout(r, opts.sample * 1000)), done.catch(() => {})]);
      if (finished) break;
      client.send({ type: "tick" });
      const tick = next("tick");
      tick.catch(() => {});
      const w = await Promise.race([tick, done.then(() => undefined)]);
      if (!w) break;
      const now = performance.now();
      const probe = readProbe(server.probe);
      const upstreamRequests = opts.upstream.forget();
      const sample = {
        t: (now - started) / 1000,
        rss: rssOf(server.pid),
        heap: probe?.heapAfterGc,
        fullGcs: probe?.fullGcs,
        heapTotal: probe?.heapTotal,
        external: probe?.external,
        eld50: probe?.p50,
        eld99: probe?.p99,
        eldMax: probe?.max,
        perSecond: w.calls / ((now - last) / 1000),
        p50: w.p50,
        p99: w.p99,
        errors: w.errors,
        sessions: w.sessions,
        total: w.total,
        upstream: upstreamRequests,
      };
      last = now;
      samples.push(sample);
      // --snapshots: one heap snapshot at half time and one near the end, to compare what grew.
      if (
        opts.snapshots &&
        snapshots < 2 &&
        sample.t >= (snapshots === 0 ? opts.duration / 2 : opts.duration - 1.5 * opts.sample)
      ) {
        snapshots++;
        process.kill(server.pid, "SIGUSR2");
      }
      process.stdout.write(
        `  ${server.name.padEnd(6)} t=${fmt(sample.t, 0).padStart(3)}s  ${fmt(sample.perSecond, 0).padStart(5)} calls/s  p50 ${fmt(sample.p50)} ms  p99 ${fmt(sample.p99)} ms  errors ${sample.errors}  RSS ${fmt(sample.rss / MB)} MB  heap ${fmt(sample.heap / MB)} MB after full GC (${sample.fullGcs ?? 0} GCs) of ${fmt(sample.heapTotal / MB, 0)} MB held, external ${fmt(sample.external / MB)} MB  loop delay p99 ${fmt(sample.eld99)} ms (max ${fmt(sample.eldMax)})  sessions ${sample.sessions}\n`,
      );
    }
    const totals = await done;
    const cpu = cpuMsOf(server.pid) - cpu0;
    const clientCpu = cpuMsOf(client.pid) - clientCpu0;
    await new Promise((r) => (client.exitCode !== null ? r() : client.once("exit", r)));
    return { samples, totals, rss0, rssEnd: rssOf(server.pid), cpu, clientCpu };
  } finally {
    await stop(client, 2_000);
  }
};

/** Slopes (MB per minute) of RSS and heap over the samples in the second half of the run. */
const slopes = (samples, duration) => {
  const late = samples.filter((s) => s.t >= duration / 2);
  const of = (key) =>
    slope(late.filter((s) => s[key] !== undefined).map((s) => ({ x: s.t / 60, y: s[key] / MB })));
  const gcs = late.length ? (late.at(-1).fullGcs ?? 0) - (late[0].fullGcs ?? 0) : 0;
  return { rss: of("rss"), heap: of("heap"), points: late.length, gcs };
};

const summarise = (name, r, duration) => {
  const s = r.totals;
  const perSecond = s.calls / (s.elapsedMs / 1000);
  const sl = slopes(r.samples, duration);
  const max = (key) => Math.max(...r.samples.map((x) => x[key] ?? Number.NEGATIVE_INFINITY));
  return {
    name,
    perSecond,
    p50: s.p50,
    p99: s.p99,
    calls: s.calls,
    errors: s.errors,
    sessions: s.sessions,
    rssStart: r.rss0 / MB,
    rssPeak: max("rss") / MB,
    rssEnd: r.rssEnd / MB,
    rssSlope: sl.rss,
    heapSlope: sl.heap,
    slopePoints: sl.points,
    lateGcs: sl.gcs,
    liveHeap: (r.samples.findLast((x) => x.heap !== undefined)?.heap ?? Number.NaN) / MB,
    callsAtHalf: r.samples.find((x) => x.t >= duration / 2)?.total ?? s.calls,
    eld99: max("eld99"),
    eldMax: max("eldMax"),
    cpuPerCall: (r.cpu * 1000) / s.calls,
    clientCpuShare: r.clientCpu / s.elapsedMs,
    errorSamples: s.errorSamples,
  };
};

/** A mistake in the command line: printed without a stack, with the usage, exit code 2. */
class UsageError extends Error {}

const USAGE =
  "pnpm bench:load [--duration <s>=60] [--clients <n>=200] [--sample <s>=5 (1 under 30 s)] [--churn <calls per session>=25, 0: never]\n" +
  "                [--upstream-ms <delay of each upstream answer>=0] [--only quiver|bare]\n" +
  "                [--snapshots <dir>: heap snapshots of each server at half time and near the end, into <dir>]\n" +
  "                [--gc: a full GC in each server at every sample, so the live heap is exact (one pause per sample)]";

const parse = () => {
  try {
    return parseArgs({
      options: {
        duration: { type: "string", default: "60" },
        clients: { type: "string", default: "200" },
        sample: { type: "string" },
        churn: { type: "string", default: "25" },
        "upstream-ms": { type: "string", default: "0" },
        snapshots: { type: "string" },
        gc: { type: "boolean" },
        only: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
};

const main = async () => {
  const { values } = parse();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const duration = Number(values.duration);
  const opts = {
    duration,
    clients: Number(values.clients),
    sample: Number(values.sample ?? (duration < 30 ? 1 : 5)),
    churn: Number(values.churn),
  };
  for (const [k, v] of Object.entries(opts))
    if (!Number.isFinite(v) || v < 0 || (k !== "churn" && v === 0))
      throw new UsageError(`--${k}: expected a positive number, got "${values[k]}"`);
  if (values.only !== undefined && values.only !== "quiver" && values.only !== "bare")
    throw new UsageError(`--only: expected quiver or bare, got ${values.only}`);
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` first`);

  const children = new Set();
  const track = (child) => {
    children.add(child);
    child.once("exit", () => children.delete(child));
  };
  const stopAll = () => Promise.all([...children].map((c) => stop(c, 2_000)));
  let active;
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write("\ninterrupted: stopping every process the bench started …\n");
    // The server's close() also removes its temporary project.
    void Promise.all([stopAll(), active?.close()]).then(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const upstream = await startUpstream({ repo: REPO, delayMs: Number(values["upstream-ms"]) });
  const results = {};
  try {
    console.log(
      `Load: ${opts.clients} MCP SDK clients over Streamable HTTP, ${duration}s per server, a new session every ${opts.churn || "∞"} calls, ` +
        `tools fda_search_drugs / context7_search_documentation / perplexity_search_web against an emulated upstream (${values["upstream-ms"]} ms per answer); ` +
        `sampled every ${opts.sample}s. Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} at the start.\n`,
    );
    const order = values.only ? [values.only] : ["quiver", "bare"];
    for (const name of order) {
      const start = name === "quiver" ? startQuiver : name === "bare" ? startBare : undefined;
      if (!start) throw new UsageError(`--only: expected quiver or bare, got ${name}`);
      const nodeFlags = values.snapshots
        ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${resolve(values.snapshots)}`]
        : [];
      const server = await start({
        upstream: upstream.url,
        probeMs: opts.sample * 1000,
        track,
        nodeFlags,
        gc: values.gc === true,
      });
      active = server;
      try {
        upstream.forget();
        console.log(
          `${name === "quiver" ? "quiver serve (built CLI, 3 plugins)" : "bare MCP SDK server (McpServer, 3 equivalent tools)"}: ${server.url} pid ${server.pid}`,
        );
        results[name] = summarise(
          name,
          await drive(server, { ...opts, upstream, snapshots: values.snapshots }, track),
          duration,
        );
      } finally {
        await server.close();
        active = undefined;
      }
    }
  } finally {
    await stopAll();
    await upstream.close();
  }

  const rows = Object.values(results).map((r) => ({
    server: r.name,
    "calls/s": fmt(r.perSecond, 0),
    "p50 ms": fmt(r.p50),
    "p99 ms": fmt(r.p99),
    calls: String(r.calls),
    errors: String(r.errors),
    sessions: String(r.sessions),
    "RSS start/peak/end MB": `${fmt(r.rssStart, 0)}/${fmt(r.rssPeak, 0)}/${fmt(r.rssEnd, 0)}`,
    "RSS MB/min (2nd half)": fmt(r.rssSlope, 2),
    "live heap MB (end)": fmt(r.liveHeap),
    "live heap MB/min (2nd half)": fmt(r.heapSlope, 2),
    "loop delay p99/max ms": `${fmt(r.eld99)}/${fmt(r.eldMax)}`,
    "server CPU µs/call": fmt(r.cpuPerCall, 0),
  }));
  console.log(`\n${table(rows, Object.keys(rows[0] ?? {}))}\n`);
  for (const r of Object.values(results)) {
    console.log(
      `${r.name}: load generator used ${fmt(r.clientCpuShare * 100, 0)}% of a core; slope from ${r.slopePoints} samples.`,
    );
    for (const [text, n] of r.errorSamples) console.log(`  ${n}× ${text}`);
  }
  const q = results.quiver;
  const b = results.bare;
  if (q && b) {
    console.log(
      `\nquiver/bare: throughput ${fmt(q.perSecond / b.perSecond, 2)}×, p50 ${fmt(q.p50 / b.p50, 2)}×, p99 ${fmt(q.p99 / b.p99, 2)}×, ` +
        `peak RSS ${fmt(q.rssPeak / b.rssPeak, 2)}×, server CPU per call ${fmt(q.cpuPerCall / b.cpuPerCall, 2)}×`,
    );
  }
  // A steady climb of the live heap over the second half (after warm-up, JIT and the caches filling)
  // is a leak; RSS alone is not (V8 holds several times the live heap before a full collection).
  for (const r of Object.values(results)) {
    const verdict =
      r.lateGcs < 2 ? "not judged (fewer than 2 full GCs)" : r.heapSlope > 2 ? "GROWING" : "flat";
    console.log(
      `${r.name}: live heap ${verdict} over the second half (${fmt(r.heapSlope, 2)} MB/min after ${r.lateGcs} full GCs; RSS ${fmt(r.rssSlope, 2)} MB/min)` +
        (duration < 60 ? " — too short a run to judge a leak: use --duration 60 or more" : ""),
    );
    if (r.name === "quiver" && r.callsAtHalf < QUIVER_BOUNDED_ENTRIES)
      console.log(
        `  note: only ${r.callsAtHalf} calls before the second half; quiver keeps up to ${QUIVER_BOUNDED_ENTRIES} results of unique inputs ` +
          "(result cache 1,000 per tool × 3, stale results 5,000 per catalog), bounded, but still filling then: run longer to tell a leak from that.",
      );
  }
  const errors = Object.values(results).reduce((s, r) => s + r.errors, 0);
  process.exitCode = errors > 0 ? 1 : 0;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    if (error instanceof UsageError) {
      console.error(`bench:load: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  });
}
