import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { HOST_DIR } from "./helpers.js";

// The official MCP conformance server suite against `quiver serve` with the conformance fixture
// plugin (the same run as `pnpm test:conformance`): every scenario passes, with an empty baseline
// (conformance/expected-failures.yml).
it("passes every scenario of the MCP conformance server suite", async () => {
  const child = spawn(process.execPath, [join(HOST_DIR, "conformance", "run.mjs")], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise<number | null>((r) => child.on("close", r));
  const lines = out.split("\n").filter((l) => /^[✓✗] /.test(l));
  const failed = lines.filter((l) => l.startsWith("✗")).map((l) => l.slice(2, l.indexOf(":")));
  expect(failed, out).toEqual([]);
  for (const s of [
    "tools-call-with-logging",
    "tools-call-image",
    "tools-call-sampling",
    "logging-set-level",
    "resources-subscribe",
    "resources-unsubscribe",
  ])
    expect(
      lines.some((l) => l.startsWith(`✓ ${s}:`)),
      out,
    ).toBe(true);
  expect(code, out).toBe(0);
}, 120_000);
