import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as Redacted from "effect/Redacted";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  createHttpClient,
  definePlugin,
  defineToolWith,
  ERROR_KINDS,
  envelopeSchema,
  errorKindSchema,
  resolvePluginConfig,
  secret,
  setting,
} from "../src/index.js";
import { makeTestClock } from "./fixtures.js";

interface Config {
  readonly path: string;
  readonly size: number;
}

/** A plugin whose setup opens a "connection" and records its lifecycle in `log`. */
const connected = (log: string[], opts: { failFirst?: boolean } = {}) => {
  let setups = 0;
  const tool = defineToolWith<Config, { readonly conn: string }>()({
    name: "read_conn",
    description: "Reads the connection setup opened. Use in tests.",
    category: "computational_service",
    input: z.object({}),
    output: z.object({ conn: z.string(), size: z.number() }),
    run: (_input, ctx) => ({ conn: ctx.resources.conn, size: ctx.config.size }),
  });
  return definePlugin({
    specificationVersion: "v1",
    id: "conn",
    version: "1.0.0",
    config: z.object({ path: z.string(), size: setting(z.coerce.number(), { env: "CONN_SIZE" }) }),
    defaults: { path: "/default", size: 1 },
    tools: [tool],
    setup: async ({ config, onClose }) => {
      setups++;
      log.push(`setup ${config.path} #${setups}`);
      if (opts.failFirst && setups === 1) throw new Error("database is starting up");
      onClose(() => {
        log.push("close connection");
      });
      onClose(() => {
        log.push("close index");
      });
      return { conn: `${config.path}#${setups}` };
    },
    health: async ({ resources }) => ({ ok: true, message: `open: ${resources.conn}` }),
    dispose: () => {
      log.push("dispose");
    },
  });
};

describe("plugin setup", () => {
  it("opens once per registration, at the first call, shared by concurrent calls", async () => {
    const log: string[] = [];
    const catalog = createCatalog({ env: {} });
    catalog.register(connected(log));
    expect(log).toEqual([]);
    const results = await Promise.all([1, 2, 3].map(() => catalog.call("read_conn", {})));
    for (const r of results) expect(r.data).toEqual({ conn: "/default#1", size: 1 });
    expect(log).toEqual(["setup /default #1"]);
    await catalog.close();
  });

  it("gives setup and every tool the catalog's clock, so a plugin's own timers move with a test clock", async () => {
    const time = await makeTestClock();
    const seen: number[] = [];
    const tool = defineToolWith<unknown, { readonly openedAt: number }>()({
      name: "read_clock",
      description: "Reads the clock its context carries. Use in tests.",
      category: "computational_service",
      input: z.object({}),
      output: z.object({ openedAt: z.number(), now: z.number() }),
      run: (_input, ctx) => ({ openedAt: ctx.resources.openedAt, now: ctx.clock.currentTimeMillisUnsafe() }),
    });
    const plugin = definePlugin({
      specificationVersion: "v1",
      id: "clocked",
      version: "1.0.0",
      tools: [tool],
      setup: ({ clock }) => {
        seen.push(clock.currentTimeMillisUnsafe());
        return { openedAt: clock.currentTimeMillisUnsafe() };
      },
    });
    const catalog = createCatalog({ env: {}, clock: time.clock });
    catalog.register(plugin);
    const first = await catalog.call("read_clock", {});
    await time.advance(60_000);
    const second = await catalog.call("read_clock", {});
    expect(seen).toEqual([Date.parse("2026-01-01T00:00:00Z")]);
    expect(first.data).toEqual({ openedAt: seen[0], now: seen[0] });
    expect(second.data).toEqual({ openedAt: seen[0], now: seen[0]! + 60_000 });
    await catalog.close();
  });

  it("closes what setup opened, last first, then dispose, when the catalog closes", async () => {
    const log: string[] = [];
    const catalog = createCatalog({ env: {} });
    catalog.register(connected(log));
    await catalog.call("read_conn", {});
    await catalog.close();
    expect(log).toEqual(["setup /default #1", "close index", "close connection", "dispose"]);
  });

  it("closes the old registration's resources when the plugin is registered again", async () => {
    const log: string[] = [];
    const catalog = createCatalog({ env: {} });
    catalog.register(connected(log));
    await catalog.call("read_conn", {});
    catalog.register(connected(log), { path: "/other" });
    const r = await catalog.call("read_conn", {});
    expect(r.data).toEqual({ conn: "/other#1", size: 1 });
    const closed = log.filter((l) => !l.startsWith("setup"));
    expect(closed).toEqual(["close index", "close connection", "dispose"]);
    expect(log.filter((l) => l.startsWith("setup"))).toEqual(["setup /default #1", "setup /other #1"]);
    await catalog.close();
  });

  it("a failed setup is unavailable and retryable, and the next call tries again", async () => {
    const log: string[] = [];
    const catalog = createCatalog({ env: {} });
    catalog.register(connected(log, { failFirst: true }), {});
    const first = await catalog.call("read_conn", {});
    expect(first.status).toBe("unavailable");
    expect(first.error).toMatchObject({ kind: "unavailable", retryable: true });
    expect(first.message).toContain("could not start: database is starting up");
    const second = await catalog.call("read_conn", {});
    expect(second.status).toBe("success");
    expect(second.data).toEqual({ conn: "/default#2", size: 1 });
    await catalog.close();
  });

  it("lists a plugin whose last setup failed with the reason, secrets hidden, until a setup succeeds", async () => {
    let attempts = 0;
    const plugin = definePlugin({
      specificationVersion: "v1",
      id: "db",
      version: "1.0.0",
      config: z.object({ password: secret({ env: "DB_PASSWORD" }) }),
      tools: [
        defineToolWith<{ password: Redacted.Redacted<string> }, unknown>()({
          name: "db_ping",
          description: "Pings the database. Use in tests.",
          category: "computational_service",
          input: z.object({}),
          output: z.object({ ok: z.boolean() }),
          run: () => ({ ok: true }),
        }),
      ],
      setup: async ({ config }) => {
        attempts++;
        if (attempts === 1)
          throw new Error(`auth failed for postgres://app:${Redacted.value(config.password)}@db/app`);
        return {};
      },
    });
    const catalog = createCatalog({ env: { DB_PASSWORD: "hunter2-secret" } });
    catalog.register(plugin, {});
    const before = catalog.plugins().find((p) => p.id === "db")!;
    expect(before.status).toBe("ready");
    expect(before.setupError).toBeUndefined();

    expect((await catalog.call("db_ping", {})).status).toBe("unavailable");
    const failing = catalog.plugins().find((p) => p.id === "db")!;
    expect(failing.setupError).toContain("auth failed for postgres://");
    expect(failing.setupError).not.toContain("hunter2-secret");

    expect((await catalog.call("db_ping", {})).status).toBe("success");
    expect(catalog.plugins().find((p) => p.id === "db")!.setupError).toBeUndefined();
    await catalog.close();
  });

  it("open() gives a command the config and resources; health sees the resources", async () => {
    const log: string[] = [];
    const catalog = createCatalog({ env: { CONN_SIZE: "7" } });
    catalog.register(connected(log), { path: "/cli" });
    const opened = await catalog.open("conn");
    expect(opened).toEqual({ config: { path: "/cli", size: 7 }, resources: { conn: "/cli#1" } });
    expect((await catalog.health("conn")).message).toBe("open: /cli#1");
    await expect(catalog.open("nope")).rejects.toThrow('No plugin "nope"');
    await catalog.close();
  });
});

describe("options as defaults", () => {
  it("environment variables and registration options win over the plugin's defaults", () => {
    const plugin = connected([]);
    expect(resolvePluginConfig(plugin, {}, {})).toMatchObject({
      ok: true,
      config: { path: "/default", size: 1 },
    });
    expect(resolvePluginConfig(plugin, {}, { CONN_SIZE: "4" })).toMatchObject({ config: { size: 4 } });
    expect(resolvePluginConfig(plugin, { size: 9, path: "/x" }, { CONN_SIZE: "4" })).toMatchObject({
      config: { path: "/x", size: 9 },
    });
  });
});

describe("plugin commands", () => {
  it("rejects a command name the CLI cannot mount, and a name given twice", () => {
    const base = { specificationVersion: "v1" as const, id: "cmd", version: "1.0.0", tools: [] };
    const command = { name: "index", summary: "x", run: () => 0 };
    expect(() => definePlugin({ ...base, commands: [{ ...command, name: "Bad Name" }] })).toThrow(
      /command name "Bad Name"/,
    );
    expect(() => definePlugin({ ...base, commands: [command, command] })).toThrow(/twice/);
    expect(definePlugin({ ...base, commands: [command] }).commands).toHaveLength(1);
  });
});

describe("several rate limits on one tool", () => {
  it("applies every limit: a roomy per-minute one and a tight per-day one on the same key", async () => {
    const tool = defineToolWith<undefined>()({
      name: "limited",
      description: "A tool with two budgets. Use in tests.",
      category: "computational_service",
      input: z.object({ n: z.number() }),
      output: z.object({ n: z.number() }),
      policy: {
        rateLimit: [
          { key: "api", limit: 100, window: "1m" },
          { key: "api", limit: 2, window: "1d" },
        ],
      },
      run: ({ n }) => ({ n }),
    });
    const catalog = createCatalog({ env: {} });
    catalog.register(
      definePlugin({ specificationVersion: "v1", id: "lim", version: "1.0.0", tools: [tool] }),
    );
    expect(catalog.describe("limited")!.policy.rateLimit!.map((r) => r.key)).toEqual([
      "api",
      "api:86400000ms",
    ]);
    expect((await catalog.call("limited", { n: 1 })).status).toBe("success");
    expect((await catalog.call("limited", { n: 2 })).status).toBe("success");
    const third = await catalog.call("limited", { n: 3 });
    expect(third.error?.kind).toBe("rate_limited");
    expect(third.message).toContain("2 calls per day");
    await catalog.close();
  });
});

describe("one envelope definition", () => {
  it("derives the error kinds list from the zod enum, and validates a real envelope", async () => {
    expect(ERROR_KINDS).toEqual(errorKindSchema.options);
    const catalog = createCatalog({ env: {} });
    const result = await catalog.call("missing_tool", {});
    expect(envelopeSchema.safeParse(result).success).toBe(true);
    expect(envelopeSchema.safeParse({ ...result, status: "weird" }).success).toBe(false);
    await catalog.close();
  });
});

describe("per-request headers timeout", () => {
  it("waits longer for one slow request than the client's default allows", async () => {
    const server = createServer((_req, res) => {
      setTimeout(() => res.end(JSON.stringify({ ok: true })), 300);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const http = createHttpClient({ headersTimeoutMs: 100 });
    try {
      await expect(http.json({ url })).rejects.toMatchObject({ kind: "timeout" });
      await expect(http.json({ url, headersTimeoutMs: 2_000 })).resolves.toEqual({ ok: true });
    } finally {
      await http.close();
      server.close();
    }
  });
});
