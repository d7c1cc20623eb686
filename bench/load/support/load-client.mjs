// The load generator, forked by bench/load/load.mjs (a process of its own, apart from the servers):
// N real MCP SDK clients over Streamable HTTP, each `initialize` and then a loop of tools/call through
// the workload, for a fixed time. Every `churn` calls a client closes its session (DELETE) and opens a
// new one, so session set-up and tear-down are part of the load. Kept light: one latency per call in
// a growing array, nothing else. Protocol (IPC): ← {type:"start", url, clients, durationMs, churn};
// → {type:"ready"} once every client is connected; ← {type:"tick"} → {type:"tick", ...window};
// → {type:"done", ...totals} when the time is up and every client has closed.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { WORKLOAD } from "./workload.mjs";

const quantile = (sorted, q) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] : NaN;
const summary = (xs) => {
  const s = Float64Array.from(xs).sort();
  return { calls: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99) };
};

const connect = async (url) => {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "quiver-load", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
};
const disconnect = async ({ client, transport }) => {
  await transport.terminateSession().catch(() => {});
  await client.close().catch(() => {});
};

const run = async ({ url, clients, durationMs, churn }) => {
  const all = [];
  let window = [];
  let errors = 0;
  let windowErrors = 0;
  let sessions = 0;
  const errorSamples = new Map();
  const noteError = (text) => {
    errors++;
    windowErrors++;
    const key = String(text).slice(0, 160);
    errorSamples.set(key, (errorSamples.get(key) ?? 0) + 1);
  };

  const conns = await Promise.all(Array.from({ length: clients }, () => connect(url)));
  sessions += clients;
  process.on("message", (m) => {
    if (m?.type !== "tick") return;
    const w = summary(window);
    process.send({ type: "tick", ...w, errors: windowErrors, sessions, total: all.length });
    window = [];
    windowErrors = 0;
  });
  process.send({ type: "ready" });

  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    conns.map(async (first, k) => {
      let conn = first;
      let i = 0;
      while (performance.now() < end) {
        const step = WORKLOAD[(k + i) % WORKLOAD.length];
        const t = performance.now();
        try {
          const r = await conn.client.callTool({ name: step.tool, arguments: step.args(k, i) });
          const ms = performance.now() - t;
          all.push(ms);
          window.push(ms);
          if (r.isError) noteError(`${step.tool}: ${r.content?.[0]?.text ?? "isError"}`);
        } catch (error) {
          noteError(`${step.tool}: ${error instanceof Error ? error.message : String(error)}`);
        }
        i++;
        if (churn > 0 && i % churn === 0 && performance.now() < end) {
          await disconnect(conn);
          try {
            conn = await connect(url);
            sessions++;
          } catch (error) {
            noteError(`initialize: ${error instanceof Error ? error.message : String(error)}`);
            return;
          }
        }
      }
      await disconnect(conn);
    }),
  );
  const elapsedMs = performance.now() - started;
  const total = summary(all);
  process.send({
    type: "done",
    ...total,
    elapsedMs,
    errors,
    sessions,
    errorSamples: [...errorSamples].sort((a, b) => b[1] - a[1]).slice(0, 5),
  });
};

process.once("message", (m) => {
  run(m).then(
    () => process.disconnect(),
    (error) => {
      process.send({
        type: "failed",
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      process.disconnect();
    },
  );
});
