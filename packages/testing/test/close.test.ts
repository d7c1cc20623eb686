import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { closedUrl } from "../src/emulator/closed-url.js";
import { startEmulator } from "../src/emulator/start-emulator.js";

const count = (kind: string): number => process.getActiveResourcesInfo().filter((r) => r === kind).length;

/** Polls until `check` passes or `ms` elapse. */
const eventually = async (check: () => boolean, ms = 1_000): Promise<boolean> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
};

describe("close", () => {
  it("ends hanging, delayed, slow and streaming responses promptly and releases every handle", async () => {
    const servers = count("TCPServerWrap");
    const sockets = count("TCPSocketWrap");
    const timeouts = count("Timeout");

    const up = await startEmulator();
    let stalled: { destroy(): unknown } | undefined;
    up.route("GET", "/ok", { json: { ok: true } });
    up.fault("GET", "/hang", { kind: "hang" });
    up.fault("GET", "/delay", { kind: "delay", ms: 60_000 });
    up.fault("GET", "/ok", { kind: "slowBody", chunkBytes: 1, intervalMs: 10_000 });
    up.fault("GET", "/big", { kind: "oversized", bytes: 500 * 1024 * 1024 });

    const pending = [
      request(`${up.url}/hang`).then((r) => r.body.text()),
      request(`${up.url}/delay`).then((r) => r.body.text()),
      request(`${up.url}/ok`).then((r) => r.body.text()),
      // A client that reads headers, then stops reading: the server is blocked on back-pressure.
      request(`${up.url}/big`).then((r) => {
        stalled = r.body;
        return "";
      }),
    ];
    pending.forEach((p) => {
      p.catch(() => {});
    });
    expect(await eventually(() => up.requests.length === 4)).toBe(true);
    expect(count("TCPServerWrap")).toBe(servers + 1);

    const started = performance.now();
    await up.close();
    expect(performance.now() - started).toBeLessThan(500);

    const settled = await Promise.allSettled(pending.slice(0, 3));
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(performance.now() - started).toBeLessThan(1_000);

    expect(count("TCPServerWrap")).toBe(servers);
    // A client that never reads does not notice the closed socket; that one is the client's to drop.
    expect(stalled).toBeDefined();
    stalled?.destroy();
    expect(await eventually(() => count("TCPSocketWrap") <= sockets)).toBe(true);
    // The 60 s delay and the 10 s dribble timers were cancelled, not left to fire later.
    expect(count("Timeout")).toBeLessThanOrEqual(timeouts);
  });

  it("is idempotent and works with await using", async () => {
    let url: string;
    {
      await using up = await startEmulator();
      url = up.url;
      expect((await fetch(`${url}/x`)).status).toBe(404);
      await up.close();
    }
    const error = await request(url).catch((e: unknown) => e as { code?: string });
    expect(error).toMatchObject({ code: "ECONNREFUSED" });
  });

  it("can listen on a chosen port", async () => {
    const free = Number(new URL(await closedUrl()).port);
    await using up = await startEmulator({ port: free });
    expect(up.port).toBe(free);
    expect(up.url).toBe(`http://127.0.0.1:${free}`);
  });

  it("rejects when the port is taken", async () => {
    await using first = await startEmulator();
    await expect(startEmulator({ port: first.port })).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});

describe("closedUrl", () => {
  it("returns a loopback URL that refuses connections", async () => {
    const url = await closedUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const viaUndici = await request(`${url}/x`).catch((e: unknown) => e as { code?: string });
    expect(viaUndici).toMatchObject({ code: "ECONNREFUSED" });
    const viaFetch = await fetch(`${url}/x`).catch(
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    expect(viaFetch).toBeInstanceOf(TypeError);
    expect((viaFetch as { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
  });
});

describe("process lifetime", () => {
  const child = fileURLToPath(new URL("./fixtures/exit-after-close.mjs", import.meta.url));
  const run = (timeout: number, ...args: string[]) =>
    new Promise<{ code: number | null; signal: string | null; stdout: string; ms: number }>((resolve) => {
      const started = performance.now();
      execFile(process.execPath, [child, ...args], { timeout }, (error, stdout) => {
        const code = error ? ((error as { code?: unknown }).code as number | null) : 0;
        resolve({ code, signal: error?.signal ?? null, stdout, ms: performance.now() - started });
      });
    });

  it("lets the process exit right after close(), with requests still in flight", async () => {
    const result = await run(3_000);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(["UND_ERR_SOCKET", "UND_ERR_SOCKET", "UND_ERR_SOCKET"]);
    expect(result.ms).toBeLessThan(2_500);
  });

  it("(control) keeps the process alive when close() is not called", async () => {
    const result = await run(1_000, "no-close");
    expect(result.signal).toBe("SIGTERM");
  });
});
