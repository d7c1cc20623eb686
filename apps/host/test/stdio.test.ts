import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeProject, type Project } from "./helpers.js";

type Envelope = { status: string; data?: any };

let project: Project;
beforeAll(() => {
  project = makeProject({ fixtures: ["echo", "needs-key", "broken"] });
});
afterAll(() => project?.cleanup());

describe("quiver serve --stdio", () => {
  it("serves the discovered tools over MCP on stdin/stdout, calls made as QUIVER_PRINCIPAL, logs on stderr", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--stdio"],
      cwd: project.dir,
      env: cleanEnv({ QUIVER_PRINCIPAL: "carol" }),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += d));
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["echo_text", "echo_whoami", "keyed_lookup", "quiver_find_tools"]),
      );
      const who = await client.callTool({ name: "echo_whoami", arguments: {} });
      expect((who.structuredContent as Envelope).data.principal).toBe("carol");
      const locked = await client.callTool({ name: "keyed_lookup", arguments: { q: "x" } });
      expect(locked.isError).toBe(true);
      expect((locked.structuredContent as Envelope).status).toBe("unavailable");
      expect(stderr).toMatch(/skipped quiver-plugin-broken/);
      expect(stderr).toMatch(/MCP over stdio ready/);
    } finally {
      await client.close();
    }
  });
});
