// Idle resident memory of `quiver serve` with every first-party plugin, against the bare MCP SDK server
// with one tool and an idle node process: RSS read from /proc once start-up has settled (after a GC-free
// wait and one MCP session, so both servers have loaded their request path).
import { spawn } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { median, table, target } from "../lib/measure.mjs";
import { rssOf, startBare, startQuiver } from "./support/serve-process.mjs";

/** The target: idle `quiver serve` with every plugin at most this many times the bare server's RSS. */
export const RSS_TARGET = 1.4;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const touch = async (url) => {
  const c = new Client({ name: "bench", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  await c.listTools();
  await c.callTool({ name: "noop", arguments: { q: "x" } });
  await c.close();
};

const settle = async (pid, settleMs) => {
  await sleep(settleMs);
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssOf(pid));
    await sleep(200);
  }
  return median(samples);
};

export async function run({ settleMs = 2_000, rounds = 3 } = {}) {
  if (rssOf(process.pid) === undefined) {
    return { title: "Idle memory", table: "(skipped: /proc is not available on this system)", notes: [] };
  }
  const measure = async (start) => {
    const out = [];
    for (let r = 0; r < rounds; r++) {
      const s = await start();
      try {
        await touch(s.url);
        out.push(await settle(s.pid, settleMs));
      } finally {
        await s.close();
      }
    }
    return median(out);
  };
  const idleNode = await (async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    try {
      return await settle(child.pid, 500);
    } finally {
      child.kill();
    }
  })();
  const bare = await measure(startBare);
  const quiverAll = await measure(() => startQuiver({ plugins: "all" }));
  const quiverNoop = await measure(() => startQuiver({ plugins: "noop" }));
  const mb = (b) => (b / 1024 / 1024).toFixed(1);
  const rows = [
    { process: "idle node process", rss: idleNode },
    { process: "bare MCP SDK server (1 tool)", rss: bare },
    { process: "quiver serve (trivial tool only)", rss: quiverNoop },
    { process: "quiver serve (every first-party plugin)", rss: quiverAll },
  ].map((r) => ({ process: r.process, "RSS MB": mb(r.rss), "× bare": (r.rss / bare).toFixed(2) }));
  return {
    title: `Idle resident memory after start-up (median of ${rounds} starts, RSS from /proc)`,
    table: table(rows, ["process", "RSS MB", "× bare"]),
    notes: [
      `quiver serve with every plugin = ${mb(quiverAll)} MB, ${mb(quiverAll - bare)} MB above the bare MCP SDK server (${(quiverAll / bare).toFixed(2)}×)`,
    ],
    targets: [
      target(`quiver serve idle RSS ≤ ${RSS_TARGET.toFixed(1)}× bare MCP SDK server`, quiverAll / bare, {
        max: RSS_TARGET,
      }),
    ],
    rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(`${r.title}\n${r.table}\n${[...r.notes, ...(r.targets ?? []).map((t) => t.line)].join("\n")}`);
}
