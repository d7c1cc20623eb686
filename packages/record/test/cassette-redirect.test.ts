import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCatalog, definePlugin, defineTool } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCassetteHttpClient } from "../src/cassette-http-client.js";
import type { CassetteMode } from "../src/cassette-mode.js";
import { sendJson, startServer } from "./local-server.js";

/** A plugin whose one request is redirected once by its upstream. */
const movedPlugin = definePlugin({
  specificationVersion: "v1",
  id: "moved",
  version: "1.0.0",
  config: z.object({ baseUrl: z.string() }),
  tools: [
    defineTool({
      name: "moved_fetch",
      description: "Fetches a resource that has moved (record/replay redirect test tool).",
      category: "computational_service",
      input: z.object({ id: z.string() }),
      output: z.object({ id: z.string(), at: z.string() }),
      run: ({ id }, ctx) =>
        ctx.http.json<{ id: string; at: string }>({
          url: `${(ctx.config as { baseUrl: string }).baseUrl}/old/${id}`,
          signal: ctx.signal,
        }),
    }),
  ],
});

const catalogFor = (dir: string, mode: CassetteMode, baseUrl: string) => {
  const catalog = createCatalog({ http: createCassetteHttpClient({ dir, mode }), env: {} });
  catalog.register(movedPlugin, { baseUrl });
  return catalog;
};

describe("createCassetteHttpClient and redirects", () => {
  it("records every hop of a redirected request, and replays them with the network closed", async () => {
    const up = await startServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path.startsWith("/old/")) {
        res.writeHead(302, { location: path.replace("/old/", "/new/") });
        return res.end();
      }
      return sendJson(res, 200, { id: path.split("/").pop(), at: path });
    });
    const dir = mkdtempSync(join(tmpdir(), "quiver-cassettes-"));
    const recorder = catalogFor(dir, "record", up.origin);
    const live = await recorder.call("moved_fetch", { id: "p1" });
    await recorder.close();
    await up.close();
    expect(live.status, live.message).toBe("success");
    expect(live.data).toEqual({ id: "p1", at: "/new/p1" });

    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(1);
    const cassette = JSON.parse(readFileSync(join(dir, files[0]!), "utf8"));
    expect(cassette.interactions.map((i: { status: number; url: string }) => [i.status, i.url])).toEqual([
      [302, `${up.origin}/old/p1`],
      [200, `${up.origin}/new/p1`],
    ]);

    const player = catalogFor(dir, "replay", up.origin);
    const replayed = await player.call("moved_fetch", { id: "p1" });
    await player.close();
    expect(replayed.status, replayed.message).toBe("success");
    expect(replayed.data).toEqual(live.data);
  });
});
