import { symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, FIXTURES, makeProject, type Project, type ServeProcess, startServe } from "./helpers.js";

let project: Project;
let serve: ServeProcess;
beforeAll(async () => {
  project = makeProject({ fixtures: ["echo"] });
  serve = await startServe([], { cwd: project.dir });
});
afterAll(async () => {
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  project?.cleanup();
});

const setDeps = (deps: Record<string, string>) =>
  writeFileSync(
    join(project.dir, "package.json"),
    JSON.stringify({ name: "p", private: true, dependencies: deps }),
  );

describe("SIGHUP: plugins installed or removed while serving", () => {
  it("registers new plugins and drops removed ones, and MCP clients are told", async () => {
    let changed = 0;
    const client = new Client(
      { name: "reload-test", version: "1.0.0" },
      { listChanged: { tools: { onChanged: () => changed++, autoRefresh: false } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`)));
    try {
      await client.listTools();
      symlinkSync(
        join(FIXTURES, "needs-key"),
        join(project.dir, "node_modules", "quiver-plugin-needs-key"),
        "dir",
      );
      setDeps({ "quiver-plugin-echo": "*", "quiver-plugin-needs-key": "*" });
      serve.child.kill("SIGHUP");
      await eventually(() => changed > 0);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("keyed_lookup");
      expect(serve.stderr()).toMatch(/SIGHUP: plugins rediscovered; added needs-key/);

      const before = changed;
      unlinkSync(join(project.dir, "node_modules", "quiver-plugin-echo"));
      setDeps({ "quiver-plugin-needs-key": "*" });
      serve.child.kill("SIGHUP");
      await eventually(() => changed > before);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain("echo_text");
      expect(names).toContain("keyed_lookup");
      await eventually(() => /removed echo/.test(serve.stderr()));
    } finally {
      await client.close();
    }
  });
});
