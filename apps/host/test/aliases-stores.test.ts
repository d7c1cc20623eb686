import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost } from "../src/host/create-host.js";
import { checkRedis } from "../src/stores/check-redis.js";
import { makeProject, type Project, runQuiver } from "./helpers.js";

let project: Project;
beforeAll(() => {
  project = makeProject({ fixtures: ["echo"] });
});
afterAll(() => project?.cleanup());

const withConfig = (config: unknown) => {
  const p = makeProject({
    fixtures: ["echo"],
    config: { name: "quiver.config.json", text: JSON.stringify(config) },
  });
  return p;
};

describe("aliases in the config", () => {
  it("list and call a tool under its old name as well", async () => {
    const p = withConfig({ aliases: { say: "echo_text" } });
    try {
      const list = await runQuiver(["list", "--json"], { cwd: p.dir });
      expect(list.code).toBe(0);
      const names = JSON.parse(list.stdout).tools.map((t: { name: string }) => t.name);
      expect(names).toEqual(expect.arrayContaining(["echo_text", "say"]));
      const call = await runQuiver(["call", "say", "--input", '{"text":"hi"}', "--json"], { cwd: p.dir });
      expect(call.code).toBe(0);
      expect(JSON.parse(call.stdout)).toMatchObject({ status: "success", data: { text: "hi" } });
    } finally {
      p.cleanup();
    }
  });

  it("refuse an alias of a missing tool, one that takes a tool's name, and a malformed one (exit 2)", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { aliases: { say: "echo_shout" } },
        /aliases: Alias "say" stands for "echo_shout", which is not a registered tool/,
      ],
      [
        { aliases: { echo_text: "echo_whoami" } },
        /aliases\.echo_text: "echo_text" is a tool of plugin "echo"/,
      ],
      [{ aliases: { a_b: "c_d", c_d: "echo_text" } }, /aliases\.a_b: "c_d" is another alias/],
      [{ aliases: { "bad name": "echo_text" } }, /aliases.*an alias is a tool name/],
    ];
    for (const [config, message] of cases) {
      const p = withConfig(config);
      try {
        const r = await runQuiver(["list"], { cwd: p.dir });
        expect(r.code, JSON.stringify(config)).toBe(2);
        expect(r.stderr).toMatch(message);
      } finally {
        p.cleanup();
      }
    }
  });
});

const REDIS = process.env.QUIVER_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redisUp = await checkRedis(REDIS).then(
  () => true,
  (error: Error) => {
    console.warn(`Redis tests skipped: ${error.message}`);
    return false;
  },
);

describe("stores: Redis", () => {
  it.runIf(redisUp)("two hosts given the same Redis share one rate limit", async () => {
    const prefix = `quiver-host-test:${randomUUID()}:`;
    writeFileSync(
      join(project.dir, "quiver.config.json"),
      JSON.stringify({
        stores: { redis: { url: REDIS, prefix } },
        policies: { echo_text: { cache: false, rateLimit: { key: "shared", limit: 3, window: "1m" } } },
      }),
    );
    const settings = await resolveSettings({ cwd: project.dir }, {});
    const a = await createHost(settings);
    const b = await createHost(settings);
    try {
      const statuses: string[] = [];
      for (const host of [a, b, a, b]) {
        statuses.push((await host.catalog.call("echo_text", { text: "x" })).status);
      }
      expect(statuses).toEqual(["success", "success", "success", "error"]);
      const limited = await b.catalog.call("echo_text", { text: "y" });
      expect(limited.error?.kind).toBe("rate_limited");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("reads the URL from QUIVER_REDIS_URL, then REDIS_URL, over the file, and refuses one that is not redis://", async () => {
    const p = withConfig({ stores: { redis: { url: "redis://file-host:6379", prefix: "q:" } } });
    try {
      expect((await resolveSettings({ cwd: p.dir }, {})).stores).toEqual({
        redis: { url: "redis://file-host:6379", prefix: "q:" },
      });
      const fromEnv = await resolveSettings({ cwd: p.dir }, { QUIVER_REDIS_URL: "redis://env-host:6380" });
      expect(fromEnv.stores.redis?.url).toBe("redis://env-host:6380");
      await expect(resolveSettings({ cwd: p.dir }, { QUIVER_REDIS_URL: "http://x" })).rejects.toThrow(
        "QUIVER_REDIS_URL: expected a redis:// or rediss:// URL.",
      );
      // REDIS_URL, the name hosting platforms set, is read when QUIVER_REDIS_URL is not.
      const platform = await resolveSettings({ cwd: p.dir }, { REDIS_URL: "redis://platform:6381" });
      expect(platform.stores.redis?.url).toBe("redis://platform:6381");
      const both = { QUIVER_REDIS_URL: "redis://env-host:6380", REDIS_URL: "redis://platform:6381" };
      expect((await resolveSettings({ cwd: p.dir }, both)).stores.redis?.url).toBe("redis://env-host:6380");
      await expect(resolveSettings({ cwd: p.dir }, { REDIS_URL: "nope" })).rejects.toThrow(
        "REDIS_URL: expected",
      );
    } finally {
      p.cleanup();
    }
  });

  it("stops the start with a clear error when Redis is unreachable, without the password", async () => {
    const env = { QUIVER_REDIS_URL: "redis://user:s3cret@127.0.0.1:1" };
    const settings = await resolveSettings({ cwd: project.dir, config: undefined }, env);
    await expect(createHost(settings)).rejects.toThrow(
      /^Redis at redis:\/\/127\.0\.0\.1:1 is unreachable: ECONNREFUSED\.$/,
    );
    const r = await runQuiver(["list"], { cwd: project.dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Redis at redis://127.0.0.1:1 is unreachable: ECONNREFUSED.");
    expect(r.stderr).not.toContain("s3cret");
  });
});
