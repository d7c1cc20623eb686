// tools/call throughput over MCP Streamable HTTP for a trivial tool: `quiver serve` (the full runtime:
// validation, policies, envelope, metrics) against a bare MCP SDK server with the same tool, driven by the
// MCP SDK client with N concurrent callers (one session each) for a fixed duration. Servers run in child
// processes, one at a time, alternating rounds; medians reported.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { median, table, target } from "../lib/measure.mjs";
import { cpuMsOf, startBare, startQuiver } from "./support/serve-process.mjs";

/** The target: `quiver serve` at least this many times the bare server's calls per second. */
export const THROUGHPUT_TARGET = 1.0;

const drive = async ({ url, pid }, { callers, durationMs }) => {
  const clients = await Promise.all(
    Array.from({ length: callers }, async () => {
      const c = new Client({ name: "bench", version: "1.0.0" });
      await c.connect(new StreamableHTTPClientTransport(new URL(url)));
      return c;
    }),
  );
  const latencies = [];
  let errors = 0;
  const end = performance.now() + durationMs;
  const started = performance.now();
  const cpuBefore = cpuMsOf(pid);
  await Promise.all(
    clients.map(async (c, k) => {
      let i = 0;
      while (performance.now() < end) {
        const t = performance.now();
        const r = await c.callTool({ name: "noop", arguments: { q: `c${k}-${i++}` } });
        if (r.isError) errors++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const cpuAfter = cpuMsOf(pid);
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  const sorted = latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / (elapsed / 1000),
    p50: sorted[Math.floor(sorted.length * 0.5)] ?? Number.NaN,
    p99: sorted[Math.floor(sorted.length * 0.99)] ?? Number.NaN,
    errors,
    // Server CPU per call: robust to a shared machine, where throughput also depends on the client.
    cpuUsPerCall: cpuBefore === undefined ? Number.NaN : ((cpuAfter - cpuBefore) * 1000) / latencies.length,
  };
};

export async function run({ callers = 8, durationMs = 3_000, rounds = 5, warmupMs = 1_000 } = {}) {
  const results = { bare: [], quiver: [] };
  const servers = { bare: startBare, quiver: startQuiver };
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first so drift on a shared machine hits both.
    const order = r % 2 === 0 ? ["bare", "quiver"] : ["quiver", "bare"];
    for (const name of order) {
      const server = await servers[name]();
      try {
        await drive(server, { callers, durationMs: warmupMs });
        results[name].push(await drive(server, { callers, durationMs }));
      } finally {
        await server.close();
      }
    }
  }
  const summary = (name) => {
    const rs = results[name];
    return {
      perSecond: median(rs.map((x) => x.perSecond)),
      p50: median(rs.map((x) => x.p50)),
      p99: median(rs.map((x) => x.p99)),
      errors: rs.reduce((s, x) => s + x.errors, 0),
      cpu: median(rs.map((x) => x.cpuUsPerCall)),
    };
  };
  const bare = summary("bare");
  const quiver = summary("quiver");
  // Paired per round (the two servers ran back to back), so load drift on a shared machine cancels out.
  const ratios = results.quiver.map((q, i) => q.perSecond / results.bare[i].perSecond).sort((a, b) => a - b);
  const ratio = median(ratios);
  const cpuRatio = median(results.quiver.map((q, i) => q.cpuUsPerCall / results.bare[i].cpuUsPerCall));
  const rows = [
    { server: "bare MCP SDK server (McpServer + registerTool)", s: bare },
    { server: "quiver serve (full runtime, envelope)", s: quiver },
  ].map(({ server, s }) => ({
    server,
    "calls/s": s.perSecond.toFixed(0),
    "p50 ms": s.p50.toFixed(2),
    "p99 ms": s.p99.toFixed(2),
    "server CPU µs/call": Number.isNaN(s.cpu) ? "n/a" : s.cpu.toFixed(0),
    "tool errors": String(s.errors),
  }));
  return {
    title: `MCP tools/call throughput over Streamable HTTP (${callers} concurrent SDK clients, ${durationMs / 1000}s × ${rounds} rounds, medians)`,
    table: table(rows, ["server", "calls/s", "p50 ms", "p99 ms", "server CPU µs/call", "tool errors"]),
    notes: [
      `quiver serve = ${ratio.toFixed(2)}× the bare MCP SDK server's throughput (median of ${rounds} paired rounds, range ${ratios[0].toFixed(2)}–${ratios.at(-1).toFixed(2)})`,
      `server CPU per call: quiver ${quiver.cpu.toFixed(0)} µs vs bare ${bare.cpu.toFixed(0)} µs (paired median ${cpuRatio.toFixed(2)}×); the client and both servers share this machine's cores`,
    ],
    targets: [
      target(`MCP throughput ≥ ${THROUGHPUT_TARGET.toFixed(1)}× bare MCP SDK server`, ratio, {
        min: THROUGHPUT_TARGET,
      }),
    ],
    rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(`${r.title}\n${r.table}\n${[...r.notes, ...(r.targets ?? []).map((t) => t.line)].join("\n")}`);
}
