import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import { definePlugin, defineTool, fail, type ToolAnnotations, type ToolPolicy } from "@quiver/core";
import { freePort } from "@quiver/testing";
import { createClient } from "redis";
import { z } from "zod";

/** The Redis the tests use: the real server that scripts/services.sh starts. */
export const REDIS_URL = process.env.QUIVER_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** True when a Redis answers PING at `url` within a second. */
export const redisReachable = async (url = REDIS_URL): Promise<boolean> => {
  const client = createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    if (client.isOpen) client.destroy();
  }
};

/** A key prefix no other test run uses. */
export const uniquePrefix = (label: string) =>
  `quiver-test:${label}:${process.pid}:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}:`;

/** The keys under `prefix`, read with SCAN on a fresh connection. */
export const keysUnder = async (prefix: string, url = REDIS_URL): Promise<string[]> => {
  const client = createClient({ url });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) keys.push(...batch);
    return keys;
  } finally {
    client.destroy();
  }
};

/** Deletes every key under `prefix`. */
export const deleteUnder = async (prefix: string, url = REDIS_URL): Promise<void> => {
  const keys = await keysUnder(prefix, url);
  if (keys.length === 0) return;
  const client = createClient({ url });
  await client.connect();
  try {
    await client.del(keys);
  } finally {
    client.destroy();
  }
};

/** A tool plugin whose runs the test counts and whose failures it queues. */
export const makeProbe = (policy: ToolPolicy, annotations: ToolAnnotations) => {
  const state = { runs: 0, failures: 0 };
  const probe = defineTool({
    name: "probe",
    description: "A test tool that echoes its input, or fails as an unhealthy upstream when told to.",
    category: "computational_service",
    input: z.object({ q: z.string().describe("Any text") }),
    output: z.object({ echo: z.string() }),
    examples: [{ input: { q: "hello" } }],
    annotations,
    policy,
    run: async ({ q }) => {
      state.runs++;
      if (state.failures > 0) {
        state.failures--;
        throw fail.upstream("the upstream answered 503");
      }
      return { echo: q };
    },
  });
  const plugin = definePlugin({ specificationVersion: "v1", id: "probe", version: "1.0.0", tools: [probe] });
  return { plugin, state };
};

/** A redis:// URL on a port nothing listens on (connections are refused). */
export const closedRedisUrl = async (auth = ""): Promise<string> =>
  `redis://${auth}127.0.0.1:${await freePort()}`;

/** A TCP server that accepts connections and never answers: a Redis that hangs. */
export const silentServer = async (): Promise<{
  url: string;
  connections: () => number;
  close: () => Promise<void>;
}> => {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
