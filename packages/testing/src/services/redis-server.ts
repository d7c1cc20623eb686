import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { freePort } from "../emulator/closed-url.js";

/** True when `redis-server` and `redis-cli` are on the PATH. */
export const hasRedisServer = (): boolean => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    execFileSync("redis-cli", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Runs `redis-cli` against a port and resolves with its output ("" when it fails). */
export const redisCli = (port: number, ...args: string[]): Promise<string> =>
  new Promise((resolve) => {
    execFile("redis-cli", ["-p", String(port), ...args], { timeout: 2_000 }, (error, stdout) =>
      resolve(error ? "" : stdout),
    );
  });

/**
 * A Redis server of the test's own on a free port (no persistence), so stopping it for an outage
 * disturbs no other test; `stop` and `start` take it down and bring it back on the same port.
 * Needs `redis-server` and `redis-cli` on the PATH (see {@link hasRedisServer}).
 *
 * @example
 * const redis = await startRedisServer()
 * await redis.stop() // an outage
 * await redis.start() // back, on the same port
 */
export const startRedisServer = async () => {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    for (let i = 0; i < 200 && (await redisCli(port, "ping")).trim() !== "PONG"; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = once(c, "exit");
    c.kill("SIGKILL");
    await exited;
  };
  await start();
  /** Every key and its value (for the canary check). */
  const dump = async (): Promise<Array<{ key: string; value: string }>> => {
    const keys = (await redisCli(port, "--scan")).split("\n").filter(Boolean);
    if (keys.length === 0) return [];
    // MGET answers nil for keys that are not strings (the breakers' hashes).
    const values = (await redisCli(port, "mget", ...keys)).split("\n");
    return keys.map((key, i) => ({ key, value: values[i] ?? "" }));
  };
  return { url, port, start, stop, dump };
};
