import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Emulator, loadJson, startEmulator } from "@quiver/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_DIR, makeProject, type Project, runQuiver, type ServeProcess, startServe } from "./helpers.js";

/** The key and caller the recording runs with: neither may reach a cassette. */
const CANARY_KEY = "canary-openfda-key-93b1d0";
const CANARY_PRINCIPAL = "canary-principal-5e2a";

const SESSION = [
  { search_criteria: { active_ingredient: "tirzepatide" }, max_results: 1 },
  { search_criteria: { brand_name: "Mounjaro" }, max_results: 1 },
];

let fda: Project;
let up: Emulator;
let dir: string;

beforeAll(async () => {
  fda = makeProject({ workspace: ["@quiver/plugin-fda"] });
  up = await startEmulator();
  up.route("GET", "/drug/drugsfda.json", {
    json: loadJson(join(HOST_DIR, "test", "fixtures", "openfda", "drugsfda_tirzepatide_limit1.json")),
  });
  dir = mkdtempSync(join(tmpdir(), "quiver-host-cassettes-"));
});
afterAll(async () => {
  fda?.cleanup();
  await up?.close();
});

const call = async (server: ServeProcess, input: unknown) => {
  const res = await fetch(`${server.url}/tools/fda_search_drugs/call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  return (await res.json()) as { status: string; message: string; metadata: Record<string, unknown> };
};

const stop = async (server: ServeProcess) => {
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
};

/** The envelope without the call id and duration, which differ between any two calls. */
const comparable = (r: { metadata: Record<string, unknown> }) => {
  const { callId: _id, durationMs: _ms, ...metadata } = r.metadata;
  return { ...r, metadata };
};

const cassettes = () =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => join(dir, f));

describe("quiver serve --record / --replay", () => {
  let recorded: Array<Awaited<ReturnType<typeof call>>> = [];

  it("--record writes one cassette per call, without the key or the principal (canary)", async () => {
    const server = await startServe(["--record", dir, "--set", `fda.baseUrl=${up.url}`], {
      cwd: fda.dir,
      env: { OPENFDA_API_KEY: CANARY_KEY, QUIVER_PRINCIPAL: CANARY_PRINCIPAL },
    });
    expect(server.stderr()).toContain(`recording every tool call to ${dir}`);
    recorded = [];
    for (const input of SESSION) recorded.push(await call(server, input));
    await stop(server);
    expect(recorded.map((r) => r.status)).toEqual(["success", "success"]);
    expect(up.requests.filter((r) => r.path === "/drug/drugsfda.json").length).toBe(2);
    expect(up.requests.every((r) => r.query.get("api_key") === CANARY_KEY)).toBe(true);

    const files = cassettes();
    expect(files.length).toBe(2);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      expect(text).not.toContain(CANARY_KEY);
      expect(text).not.toContain(CANARY_PRINCIPAL);
      const cassette = JSON.parse(text);
      expect(cassette.tool).toBe("fda_search_drugs");
      expect(cassette.interactions[0].url).toContain("api_key=[REDACTED]");
    }
  });

  it("--replay answers the same calls with the upstream gone, with identical envelopes", async () => {
    const before = up.requests.length;
    const gone = up.url;
    await up.close();
    const server = await startServe(["--replay", dir, "--set", `fda.baseUrl=${gone}`], {
      cwd: fda.dir,
      env: { OPENFDA_API_KEY: "placeholder", QUIVER_PRINCIPAL: "someone-else" },
    });
    expect(server.stderr()).toContain(`replaying tool calls from ${dir} (no network)`);
    const replayed = [];
    for (const input of SESSION) replayed.push(await call(server, input));
    const missing = await call(server, { search_criteria: { active_ingredient: "never-recorded" } });
    await stop(server);
    expect(replayed.map(comparable)).toEqual(recorded.map(comparable));
    expect(up.requests.length).toBe(before);
    expect(missing.status).toBe("unavailable");
    expect(missing.message).toContain(
      `No cassette for this call of fda_search_drugs: ${dir}/fda_search_drugs/`,
    );
  });

  it("rejects two cassette modes at once and an unknown timing, exit 2", async () => {
    const both = await runQuiver(["call", "fda_search_drugs", "--record", dir, "--replay", dir], {
      cwd: fda.dir,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--record and --replay: give only one of them.");
    const timing = await runQuiver(["call", "fda_search_drugs", "--replay", dir, "--replay-timing", "slow"], {
      cwd: fda.dir,
    });
    expect(timing.code).toBe(2);
    expect(timing.stderr).toContain('--replay-timing: expected "instant" or "recorded", got "slow".');
  });
});
