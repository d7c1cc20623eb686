// How long an MCP client waits for Quiver's tools when it launches the server itself (Claude Desktop,
// Cursor: a command over stdio): spawn to the first `tools/list` answer of `quiver serve --stdio` with
// every first-party plugin, against a bare MCP SDK stdio server with one tool. Warm (Node's compile
// cache filled by a first round), medians of N rounds, the two alternating within each round.

import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { median, table, target } from "../lib/measure.mjs";
import { CLI, HERE, REPO } from "./support/serve-process.mjs";

/** The target: quiver's first tools/list at most this many times the bare server's. */
export const STDIO_TARGET = 1.5;

const firstList = async (args, cwd) => {
  const started = process.hrtime.bigint();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1.0.0" });
  try {
    await client.connect(transport);
    const initMs = Number(process.hrtime.bigint() - started) / 1e6;
    const { tools } = await client.listTools();
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, initMs, tools: tools.length };
  } finally {
    await client.close().catch(() => {});
  }
};

export async function run({ runs = 11 } = {}) {
  const cases = [
    {
      name: "bare MCP SDK stdio server, 1 tool",
      args: [join(HERE, "support", "bare-mcp-stdio.mjs")],
      cwd: HERE,
    },
    {
      name: "quiver serve --stdio, every plugin",
      args: [CLI, "serve", "--stdio", "--no-demo"],
      cwd: join(REPO, "apps", "host"),
    },
  ];
  const tools = [];
  for (const c of cases) tools.push((await firstList(c.args, c.cwd)).tools);
  const ms = cases.map(() => []);
  const initMs = cases.map(() => []);
  for (let i = 0; i < runs; i++)
    for (const [k, c] of cases.entries()) {
      const r = await firstList(c.args, c.cwd);
      ms[k].push(r.ms);
      initMs[k].push(r.initMs);
    }
  const medians = ms.map(median);
  const ratio = medians[1] / medians[0];
  return {
    title: `MCP over stdio: spawn to the first tools/list, warm, medians of ${runs} rounds`,
    table: table(
      cases.map((c, k) => ({
        server: c.name,
        tools: String(tools[k]),
        "initialize ms": median(initMs[k]).toFixed(0),
        "median ms": medians[k].toFixed(0),
        "min ms": Math.min(...ms[k]).toFixed(0),
        "× bare": (medians[k] / medians[0]).toFixed(2),
      })),
      ["server", "tools", "initialize ms", "median ms", "min ms", "× bare"],
    ),
    notes: [
      `quiver's first tools/list is ${(medians[1] - medians[0]).toFixed(0)} ms after the bare server's`,
      "initialize ms: spawn to the answer of the client's opening (quiver answers it once its plugins are in, with their instructions); median ms: spawn to the first tools/list",
    ],
    targets: [
      target(`quiver serve --stdio first tools/list ≤ ${STDIO_TARGET}× the bare MCP SDK server`, ratio, {
        max: STDIO_TARGET,
      }),
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(`${r.title}\n${r.table}\n${[...r.notes, ...r.targets.map((t) => t.line)].join("\n")}`);
}
