// A confirmation token is bound to the principal it was issued to: another principal presenting it
// is refused and does not use it up, so the owner can still confirm. Through a real `quiver serve`
// (tokens, no shared store) and its HTTP API and MCP endpoint.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ToolResult } from "@quiver/core";
import { type Emulator, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, type Project, type ServeProcess, startServe } from "../helpers.js";

type Envelope = ToolResult;

let upstream: Emulator;
let project: Project;
let serve: ServeProcess;

beforeAll(async () => {
  upstream = await startEmulator();
  upstream.route("GET", "/erase", { json: { ok: true } });
  project = makeProject({ fixtures: ["replica-probe"] });
  serve = await startServe([], {
    cwd: project.dir,
    env: {
      QUIVER_TOKENS: "tok-alice=alice,tok-bob=bob",
      PROBE_UPSTREAM_URL: upstream.url,
      PROBE_API_KEY: "probe-key",
    },
  });
}, 30_000);

afterAll(async () => {
  serve?.child.kill();
  await serve?.exited;
  await upstream?.close();
  project?.cleanup();
});

/** Calls `probe_erase` through the HTTP API as `token`'s principal. */
const erase = async (token: string, input: Record<string, unknown>): Promise<Envelope> => {
  const res = await fetch(`${serve.url}/tools/probe_erase/call`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  return (await res.json()) as Envelope;
};

/** Calls `probe_erase` over MCP (an SDK client of its own) as `token`'s principal; the envelope it returns. */
const eraseOverMcp = async (token: string, input: Record<string, unknown>): Promise<Envelope> => {
  const client = new Client({ name: "owner-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const result = await client.callTool({ name: "probe_erase", arguments: input });
    return result.structuredContent as unknown as Envelope;
  } finally {
    await client.close();
  }
};

describe("a confirmation token presented by another principal", () => {
  it("over HTTP: is refused and left for its owner, who confirms once", async () => {
    const preview = await erase("tok-alice", { id: "h1" });
    expect(preview.status).toBe("partial");
    const token = preview.confirmation!.token;
    const stolen = await erase("tok-bob", { id: "h1", confirmation_token: token });
    expect(stolen.status).toBe("partial");
    expect(stolen.confirmation!.token).not.toBe(token);
    expect(upstream.requestsTo("GET", "/erase")).toHaveLength(0);

    expect((await erase("tok-alice", { id: "h1", confirmation_token: token })).status).toBe("success");
    expect((await erase("tok-alice", { id: "h1", confirmation_token: token })).status).toBe("partial");
    expect(upstream.requestsTo("GET", "/erase")).toHaveLength(1);
  });

  it("over MCP: is refused and left for its owner", async () => {
    const preview = await eraseOverMcp("tok-alice", { id: "m1" });
    expect(preview.status).toBe("partial");
    const token = preview.confirmation!.token;
    expect((await eraseOverMcp("tok-bob", { id: "m1", confirmation_token: token })).status).toBe("partial");
    expect((await eraseOverMcp("tok-alice", { id: "m1", confirmation_token: token })).status).toBe("success");
  });
});
