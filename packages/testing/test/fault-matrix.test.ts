// The shared fault matrix, run for real: a small plugin over the emulator, every fault kind on each of
// its upstream requests, with the catalog built by the matrix (plugin form) and by the caller.
import { type Catalog, createCatalog, type ToolResult } from "@quiver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../src/emulator/start-emulator.js";
import { describeFaultMatrix, expectFaultOutcome } from "../src/faults/describe-fault-matrix.js";
import { MATRIX_EXPECTATIONS } from "../src/faults/fault-matrix-defaults.js";
import { MORE_MATRIX_EXPECTATIONS, MORE_MATRIX_FAULTS } from "../src/faults/fault-matrix-more.js";
import { createNotesPlugin } from "./fixtures/plugins/notes-plugin.js";

let up: Emulator;
beforeAll(async () => {
  up = await startEmulator();
  up.route("GET", /^\/notes\/count$/, { json: { count: 2 } });
  up.route("GET", /^\/notes\/(\w+)$/, (req) => ({ json: { id: req.match?.[1] ?? "", text: "hello" } }));
  up.route("POST", "/notes", (req) => ({ json: { id: "n3", text: (req.json as { text: string }).text } }));
});
afterAll(() => up.close());

describeFaultMatrix({
  name: "fault matrix, plugin form",
  emulator: () => up,
  plugin: createNotesPlugin,
  settings: (up) => ({ baseUrl: up.url }),
  calls: [
    { method: "GET", path: "/notes/n1", tool: "notes_get_note", input: { id: "n1" } },
    {
      name: "add (POST)",
      method: "POST",
      path: "/notes",
      tool: "notes_add_note",
      input: () => ({ text: "hi" }),
    },
    {
      name: "count, which answers failures itself",
      method: "GET",
      path: "/notes/count",
      tool: "notes_count_notes",
      input: {},
      expect: Object.fromEntries(
        ["reset", "status", "invalidJson", "htmlError", "oversized"].map((kind) => [
          kind,
          {
            status: "success",
            check: (r: ToolResult) => expect(r.data).toEqual({ count: -1 }),
          },
        ]),
      ),
    },
  ],
});

describeFaultMatrix({
  name: "fault matrix, with the kinds beyond FAULT_KINDS",
  emulator: () => up,
  plugin: createNotesPlugin,
  settings: (up) => ({ baseUrl: up.url }),
  faults: MORE_MATRIX_FAULTS,
  expect: MORE_MATRIX_EXPECTATIONS,
  calls: [{ method: "GET", path: "/notes/n1", tool: "notes_get_note", input: { id: "n1" } }],
});

const open: Catalog[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describeFaultMatrix({
  name: "fault matrix, catalog form",
  emulator: () => up,
  catalog: (up, catalogOptions) => {
    const catalog = createCatalog(catalogOptions);
    catalog.register(createNotesPlugin({ baseUrl: up.url }));
    open.push(catalog);
    return catalog;
  },
  calls: [{ method: "GET", path: /^\/notes\/\w+$/, tool: "notes_get_note", input: { id: "n2" } }],
});

describe("expectFaultOutcome", () => {
  it("fails on a wrong status or retryable, and when the model is not told what to do", async () => {
    const catalog = createCatalog({ env: {} });
    catalog.register(createNotesPlugin({ baseUrl: up.url }));
    const ok = await catalog.call("notes_get_note", { id: "n1" });
    await catalog.close();
    expectFaultOutcome(ok, MATRIX_EXPECTATIONS.delay, "delay");
    expect(() => expectFaultOutcome(ok, MATRIX_EXPECTATIONS.hang, "hang")).toThrow(/hang: status/);
    const failed = {
      ...ok,
      status: "unavailable",
      message: "HTTP 503",
      error: { kind: "unavailable", message: "HTTP 503", retryable: false },
    } as ToolResult;
    expect(() => expectFaultOutcome(failed, MATRIX_EXPECTATIONS.status, "status")).toThrow(
      /status: retryable/,
    );
    const noGuidance = {
      ...failed,
      status: "unavailable",
      error: { kind: "unavailable", message: "reset", retryable: true },
    } as ToolResult;
    expect(() => expectFaultOutcome(noGuidance, MATRIX_EXPECTATIONS.reset, "reset")).toThrow(
      /the model is told what to do/,
    );
  });
});
