import { assertEnvelope } from "@quiver/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzRuns, fuzzSeed, fuzzTimeout } from "./fuzz-setup.js";
import { type JsonSchema, nearValidFor } from "./schema-arbitrary.js";
import { type AllPluginsServer, serveAllPlugins } from "./serve-all-plugins.js";

let server: AllPluginsServer;
let tools: Array<{ name: string; schema: JsonSchema }>;
beforeAll(async () => {
  server = await serveAllPlugins();
  const list = (await (await fetch(`${server.url}/tools`)).json()) as { tools: Array<{ name: string }> };
  tools = await Promise.all(
    list.tools
      .filter((t) => t.name !== "quiver_find_tools")
      .map(async (t) => ({
        name: t.name,
        schema: ((await (await fetch(`${server.url}/tools/${t.name}`)).json()) as { inputSchema: JsonSchema })
          .inputSchema,
      })),
  );
});
afterAll(() => server?.stop());

const runs = fuzzRuns("http");
const seed = fuzzSeed("http");

/** POSTs a body (a value, sent as JSON, or raw text) to a tool and reads the answer. */
const post = async (tool: string, body: string) => {
  const res = await fetch(`${server.url}/tools/${encodeURIComponent(tool)}/call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe(`fuzzing the HTTP API of a real quiver serve (${runs} cases per tool)`, () => {
  it("serves the fourteen tools of the eight plugins", () => {
    expect(tools.length).toBe(14);
  });

  it(
    "answers every near-valid or arbitrary input with 200 and an envelope (or a 4xx error object), never a 5xx",
    async () => {
      const statuses: Record<number, number> = {};
      for (const { name, schema } of tools) {
        await fc.assert(
          fc.asyncProperty(nearValidFor(schema), fc.boolean(), async (input, wrapped) => {
            const body = JSON.stringify(wrapped ? { input } : input) ?? "";
            const { status, json } = await post(name, body);
            statuses[status] = (statuses[status] ?? 0) + 1;
            expect(status).toBeLessThan(500);
            if (status === 200) {
              const envelope = assertEnvelope(json);
              expect(envelope.error?.kind).not.toBe("internal");
            } else {
              expect(status).toBeGreaterThanOrEqual(400);
              expect(json.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
            }
          }),
          { numRuns: runs, seed, endOnFailure: true },
        );
      }
      console.log(
        `[fuzz] http: ${tools.length} tools × ${runs} cases; HTTP statuses: ${JSON.stringify(statuses)}`,
      );
      expect(await fetch(`${server.url}/health`).then((r) => r.status)).toBe(200);
    },
    fuzzTimeout(runs, 10),
  );

  it(
    "answers arbitrary bytes as a body with a 4xx error object, never a 5xx",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 200 }),
          fc.constantFrom(...tools.map((t) => t.name)),
          async (bytes, name) => {
            const res = await fetch(`${server.url}/tools/${name}/call`, { method: "POST", body: bytes });
            expect(res.status).toBeLessThan(500);
            const json = (await res.json()) as Record<string, unknown>;
            if (res.status === 200) assertEnvelope(json);
            else expect(json.error).toMatchObject({ code: expect.any(String) });
          },
        ),
        { numRuns: runs, seed, endOnFailure: true },
      );
    },
    fuzzTimeout(runs / 12, 10),
  );

  it(
    "answers arbitrary paths under /tools with a 4xx, never a 5xx",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc.constantFrom("%E0%A4%A", "%", "%ZZ", "%C0%AF", "..%2F..%2Fetc%2Fpasswd", "%00", "%ED%A0%80"),
          ),
          async (segment) => {
            const path = `/tools/${segment.replace(/[?#\s/]/g, "_")}/call`;
            const res = await fetch(`${server.url}${path}`, { method: "POST", body: "{}" });
            expect(res.status, path).toBeLessThan(500);
            await res.arrayBuffer();
          },
        ),
        { numRuns: runs, seed, endOnFailure: true },
      );
    },
    fuzzTimeout(runs / 12, 10),
  );
});
