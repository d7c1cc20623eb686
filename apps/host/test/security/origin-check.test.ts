import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Catalog, createCatalog } from "@quiver/core";
import { createMcpHttpHandler, type McpHttpHandler } from "@quiver/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApi } from "../../src/http/create-http-api.js";

// The JSON API's Host/Origin check is the MCP SDK's, so the API and the MCP endpoint, given the same
// allowlists, refuse the same requests. Each case goes to both over a real socket.
const HOSTS = ["localhost", "127.0.0.1", "[::1]"];
const ORIGINS = ["localhost", "127.0.0.1", "[::1]", "moz-extension://*"];

let catalog: Catalog;
let mcp: McpHttpHandler;
let server: Server;
let port: number;

beforeAll(async () => {
  catalog = createCatalog();
  mcp = createMcpHttpHandler(catalog, { allowedHosts: HOSTS, allowedOrigins: ORIGINS });
  const api = createHttpApi(catalog, { allowedHosts: HOSTS, allowedOrigins: ORIGINS, console: false });
  server = createServer((req, res) => void mcp(req, res, () => void api(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await mcp.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await catalog.close();
});

/** A GET with exactly these headers (node:http, so `Host` can be anything): its status and body. */
const get = (to: number, path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    request(
      { host: "127.0.0.1", port: to, path, headers: { host: `127.0.0.1:${to}`, ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    )
      .on("error", reject)
      .end();
  });

/** Whether the API (GET /tools) and the MCP endpoint (GET /mcp) refuse the request as forbidden. */
const refused = async (headers: Record<string, string>) => ({
  api: (await get(port, "/tools", headers)).status === 403,
  mcp: (await get(port, "/mcp", headers)).status === 403,
});

describe("Host and Origin checks (DNS rebinding) of the JSON API and the MCP endpoint", () => {
  it.each([
    ["an allowed Origin on any port", { origin: "http://localhost:3000" }, false],
    ["no Origin (a non-browser client)", {}, false],
    ["a foreign Origin", { origin: "http://evil.example" }, true],
    [
      "an Origin without a scheme (was accepted by the hand-written check)",
      { origin: "localhost:3000" },
      true,
    ],
    ["the opaque null Origin", { origin: "null" }, true],
    [
      "an extension Origin when its scheme is listed as moz-extension://*",
      { origin: "moz-extension://a1b2" },
      false,
    ],
    ["an allowed IPv6 Host with a port", { host: "[::1]:8080" }, false],
    ["a foreign Host", { host: "evil.example:80" }, true],
  ])("%s: both agree", async (_, headers, expected) => {
    expect(await refused(headers)).toEqual({ api: expected, mcp: expected });
  });

  it("names the setting to change in the API's refusal", async () => {
    const { body } = await get(port, "/tools", { origin: "localhost:3000" });
    expect(JSON.parse(body)).toMatchObject({
      error: { code: "forbidden_origin", message: expect.stringContaining("server.allowedOrigins") },
    });
  });

  it("compares the API's allowlist without regard to case (it is written by people)", async () => {
    const api = createHttpApi(catalog, {
      allowedHosts: ["LocalHost"],
      allowedOrigins: ["LocalHost"],
      console: false,
    });
    const mixed = createServer((req, res) => void api(req, res));
    await new Promise<void>((resolve) => mixed.listen(0, "127.0.0.1", resolve));
    const mixedPort = (mixed.address() as AddressInfo).port;
    try {
      expect(
        (await get(mixedPort, "/tools", { host: `localhost:${mixedPort}`, origin: "http://LOCALHOST:5173" }))
          .status,
      ).toBe(200);
      expect((await get(mixedPort, "/tools", {})).status).toBe(403);
    } finally {
      mixed.closeAllConnections();
      await new Promise((resolve) => mixed.close(resolve));
    }
  });
});
