import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../src/config/resolve-settings.js";
import { createHost, type Host } from "../src/host/create-host.js";
import { type RunningServer, startServer } from "../src/http/start-server.js";
import { makeProject, type Project } from "./helpers.js";

type Envelope = { status: string; message: string; data?: unknown; error?: { kind: string } };

let project: Project;
let host: Host;
let server: RunningServer;

// The fixture plugin (test/fixtures/plugins/valibot) defines its tool with valibot schemas.
beforeAll(async () => {
  project = makeProject({ fixtures: ["valibot"] });
  const settings = await resolveSettings(
    { cwd: project.dir, port: "0" },
    { QUIVER_PRINCIPAL: "local-user", QUIVER_SHUTDOWN_TIMEOUT: "1s" },
  );
  host = await createHost(settings);
  server = await startServer(host, { log: () => {} });
});
afterAll(async () => {
  await server?.shutdown("test end");
  project?.cleanup();
});

const call = (input: unknown) =>
  fetch(`${server.url}/tools/valibot_greet/call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });

describe("a plugin whose tool has valibot schemas, through the HTTP API", () => {
  it("is discovered and describes its input for OpenAI strict mode, the injected field hidden", async () => {
    const r = await fetch(`${server.url}/tools/valibot_greet?target=openai`);
    expect(r.status).toBe(200);
    const described = (await r.json()) as { plugin: string; inputSchema: Record<string, unknown> };
    expect(described.plugin).toBe("valibot");
    expect(described.inputSchema).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "Who to greet (at least 1 characters)" },
        times: { type: ["integer", "null"], minimum: 1, maximum: 3, description: "(default: 1)" },
      },
      required: ["name", "times"],
      additionalProperties: false,
    });
  });

  it("runs a call the way a strict-mode model sends it, the principal injected", async () => {
    const r = await call({ name: "Ada", times: null });
    expect(r.headers.get("x-quiver-status")).toBe("success");
    const envelope = (await r.json()) as Envelope;
    expect(envelope.data).toEqual({ greeting: "Hello, Ada!", caller: "local-user" });
  });

  it("refuses bad input as invalid_input naming the field", async () => {
    const r = await call({ name: "Ada", times: 9 });
    expect(r.headers.get("x-quiver-status")).toBe("error");
    const envelope = (await r.json()) as Envelope;
    expect(envelope.error?.kind).toBe("invalid_input");
    expect(envelope.message).toMatch(/^Invalid input: times: /);
  });
});
