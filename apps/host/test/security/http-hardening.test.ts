import { request } from "node:http";
import { assertEnvelope } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AllPluginsServer, serveAllPlugins } from "../fuzz/serve-all-plugins.js";

let server: AllPluginsServer;
beforeAll(async () => {
  server = await serveAllPlugins();
});
afterAll(() => server?.stop());

/** A body nested `levels` deep, built as text: a client's JSON.stringify would exhaust its own stack. */
const deepBody = (levels: number, wrap = (inner: string) => `{"asignatura":${inner}}`) =>
  wrap(`${"[".repeat(levels)}${"]".repeat(levels)}`);

/** A raw request (the path sent byte for byte, the body as given). */
const raw = (method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const url = new URL(server.url);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });

/** The JSON-RPC answers in an MCP response (plain JSON or server-sent events). */
const rpcAnswers = (text: string): Array<Record<string, any>> =>
  text.trimStart().startsWith("{")
    ? [JSON.parse(text)]
    : text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => JSON.parse(l.slice(6)));

const MCP = { accept: "application/json, text/event-stream" };

describe("the HTTP API refuses hostile requests with a 4xx or an invalid_input envelope, never a 5xx", () => {
  it("answers /tools/%E0%A4%A/call (a truncated UTF-8 escape) with 400 invalid_path, not 500 URI malformed", async () => {
    for (const path of [
      "/tools/%E0%A4%A/call",
      "/tools/%/call",
      "/tools/%ED%A0%80/call",
      "/tools/%E0%A4%A",
    ]) {
      const r = path.endsWith("call") ? await raw("POST", path, "{}") : await raw("GET", path);
      expect(r.status, path).toBe(400);
      expect(r.text, path).toMatch(/"code":"invalid_path"/);
    }
  });

  it("answers a body nested 100,000 levels deep with invalid_input naming the depth limit, not internal", async () => {
    const r = await raw("POST", "/tools/guia_get_guide/call", deepBody(100_000));
    expect(r.status).toBe(200);
    const envelope = assertEnvelope(JSON.parse(r.text));
    expect(envelope.error?.kind).toBe("invalid_input");
    expect(envelope.message).toMatch(/asignatura.*nested deeper than the limit of 64 levels/);
    // The host still serves.
    expect((await raw("GET", "/health")).status).toBe(200);
  });

  it("answers MCP tools/call with arguments nested 100,000 levels deep with an invalid_input tool result", async () => {
    const init = await raw(
      "POST",
      "/mcp",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "deep", version: "1" },
        },
      }),
      MCP,
    );
    expect(init.status).toBe(200);
    const session = String(init.headers["mcp-session-id"]);
    const headers = { ...MCP, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    await raw(
      "POST",
      "/mcp",
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      headers,
    );
    const call = await raw(
      "POST",
      "/mcp",
      deepBody(
        100_000,
        (inner) =>
          `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"guia_get_guide","arguments":{"asignatura":${inner}}}}`,
      ),
      headers,
    );
    expect(call.status).toBeLessThan(500);
    const [answer] = rpcAnswers(call.text);
    expect(answer?.error).toBeUndefined();
    const envelope = assertEnvelope(answer?.result?.structuredContent);
    expect(envelope.error?.kind).toBe("invalid_input");
    expect(envelope.message).toMatch(/nested deeper than the limit of 64 levels/);
  });

  it("answers a body that is not valid UTF-8 with 400 invalid_encoding", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"asignatura":"meta'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}'),
    ]);
    const r = await raw("POST", "/tools/guia_get_guide/call", bytes);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error.code).toBe("invalid_encoding");
  });

  it("answers a body over the 4 MiB limit with 413, and an oversized field with invalid_input naming it", async () => {
    const big = await raw(
      "POST",
      "/tools/guia_get_guide/call",
      JSON.stringify({ asignatura: "x".repeat(5 * 1024 * 1024) }),
    );
    expect(big.status).toBe(413);
    const field = await raw(
      "POST",
      "/tools/guia_get_guide/call",
      JSON.stringify({ asignatura: "x".repeat(100_000) }),
    );
    const envelope = assertEnvelope(JSON.parse(field.text));
    expect(envelope.error?.kind).toBe("invalid_input");
    expect(envelope.message).toMatch(/asignatura/);
  });

  it.each([
    ["NUL", "\u0000"],
    ["U+202E", "\u202e"],
    ["an escape sequence", "\u001b[2J"],
  ])("refuses %s in a field with invalid_input naming the field", async (_, ch) => {
    const r = await raw(
      "POST",
      "/tools/guia_get_guide/call",
      JSON.stringify({ asignatura: `meta${ch}heuristicas` }),
    );
    const envelope = assertEnvelope(JSON.parse(r.text));
    expect(envelope.error?.kind).toBe("invalid_input");
    expect(envelope.message).toMatch(/asignatura contains the character U\+/);
  });

  it("says what it repaired: a numeric string for an integer, a dropped unknown field", async () => {
    const r = await raw(
      "POST",
      "/tools/testgen_generate_test/call",
      JSON.stringify({ topic: "algoritmos genéticos", num_questions: "3", colour: "blue" }),
    );
    const envelope = assertEnvelope(JSON.parse(r.text));
    expect(envelope.error?.kind).not.toBe("invalid_input");
    expect(envelope.metadata.repairs).toEqual([
      'num_questions: converted string "3" to number 3',
      "colour: unknown field, ignored",
    ]);
  });
});
