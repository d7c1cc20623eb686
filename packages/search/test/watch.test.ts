import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { testPostgres } from "@quiver/testing";
import { afterAll, describe, expect, it } from "vitest";
import { type IndexChange, openSearchIndex, type SearchIndex } from "../src/index.js";

// SearchIndex.watch: a host serving an index hears of documents another process (the CLI) adds. The other
// process is a real one, running the built package (dist), as the CLI would.
const DIST = pathToFileURL(fileURLToPath(new URL("../dist/index.js", import.meta.url))).href;
const dir = mkdtempSync(join(tmpdir(), "quiver-search-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `body` in a new Node process with `openSearchIndex` imported; resolves when it exits. */
const inProcess = (body: string) =>
  promisify(execFile)(process.execPath, [
    "--input-type=module",
    "-e",
    `import { openSearchIndex } from ${JSON.stringify(DIST)};\n${body}`,
  ]);

/** The next change a listener hears, and the function that stops it. */
const nextChange = (index: SearchIndex) => {
  let stop = () => {};
  const change = new Promise<IndexChange>((resolve) => {
    stop = index.watch(resolve);
  });
  return { change, stop };
};

/**
 * Resolves once the index's LISTEN is in place (a notification sent before it is not kept): writes a
 * warm-up document until the listener hears one.
 */
const listening = async (index: SearchIndex) => {
  const { change, stop } = nextChange(index);
  let heard = false;
  void change.then(() => {
    heard = true;
  });
  for (let n = 0; !heard; n++) {
    await index.add([{ id: `warm-${n}`, text: "warm-up" }], { collection: "warm-up" });
    await Promise.race([change, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  stop();
};

const doc = (id: string) => [{ id, title: `Note ${id}`, text: `Telomerase activity in sample ${id}.` }];

describe("watch on SQLite", () => {
  it("hears this handle's writes, with their collection", async () => {
    const index = await openSearchIndex({ path: ":memory:" });
    const { change, stop } = nextChange(index);
    await index.add(doc("a"), { collection: "lab" });
    expect(await change).toEqual({ collection: "lab" });
    stop();
    await index.close();
  });

  it("hears another handle on the same file, and stops hearing once unsubscribed", async () => {
    const path = join(dir, "handles.db");
    const server = await openSearchIndex({ path, watchIntervalMs: 20 });
    const cli = await openSearchIndex({ path });
    const heard: IndexChange[] = [];
    const stopFirst = server.watch((c) => heard.push(c));
    const second = nextChange(server);
    await cli.add(doc("b"), { collection: "lab" });
    expect(await second.change).toEqual({});
    expect(heard).toEqual([{}]);

    stopFirst();
    const third = nextChange(server);
    await cli.remove("b", { collection: "lab" });
    // The same poll tells every listener: the third heard it, the unsubscribed first did not.
    expect(await third.change).toEqual({});
    expect(heard).toEqual([{}]);
    second.stop();
    third.stop();
    await Promise.all([server.close(), cli.close()]);
  });

  it("hears a document added by another process, then reads it", async () => {
    const path = join(dir, "processes.db");
    const server = await openSearchIndex({ path, watchIntervalMs: 20 });
    const { change, stop } = nextChange(server);
    await inProcess(`
      const index = await openSearchIndex({ path: ${JSON.stringify(path)} });
      await index.add([{ id: "c", text: "Added by the command line." }], { collection: "lab" });
      await index.close();
    `);
    await change;
    expect((await server.document("c", { collection: "lab" }))?.text).toBe("Added by the command line.");
    stop();
    await server.close();
  });

  it("closing the index stops its polling: a process that watched exits by itself", async () => {
    const path = join(dir, "exit.db");
    // A poll timer left running would keep the child alive until execFile's timeout kills it.
    const run = promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { openSearchIndex } from ${JSON.stringify(DIST)};
         const index = await openSearchIndex({ path: ${JSON.stringify(path)}, watchIntervalMs: 10 });
         index.watch(() => {});
         await index.add([{ id: "d", text: "x" }]);
         await index.close();
         console.log("closed");`,
      ],
      { timeout: 20_000 },
    );
    await expect(run).resolves.toMatchObject({ stdout: "closed\n" });
  });

  it("refuses a watch interval that is not a positive integer", async () => {
    await expect(openSearchIndex({ path: ":memory:", watchIntervalMs: 0 })).rejects.toThrow(
      /watchIntervalMs/,
    );
  });
});

const db = await testPostgres("quiver_search_watch");
afterAll(db.dropSchema);

describe.skipIf(db.skipReason !== undefined)("watch on PostgreSQL", () => {
  const where = { databaseUrl: db.url, schema: db.schema, name: "repo" };

  it("hears another process's add through LISTEN/NOTIFY, for its own principal only", async () => {
    const alice = await openSearchIndex({ ...where, principal: "alice" });
    const bob = await openSearchIndex({ ...where, principal: "bob" });
    const heardByBob: IndexChange[] = [];
    const stopBob = bob.watch((c) => heardByBob.push(c));
    await Promise.all([listening(alice), listening(bob)]);
    heardByBob.length = 0;
    const { change, stop } = nextChange(alice);
    await inProcess(`
      const index = await openSearchIndex({ ...${JSON.stringify(where)}, principal: "alice" });
      await index.add([{ id: "e", text: "Alice's assay, secret text." }], { collection: "assays" });
      await index.close();
    `);
    expect(await change).toEqual({ collection: "assays" });
    // bob's own write is the barrier: once he hears it, alice's notification had reached him before.
    const bobsOwn = nextChange(bob);
    await bob.add(doc("f"), { collection: "bob-notes" });
    expect(await bobsOwn.change).toEqual({ collection: "bob-notes" });
    expect(heardByBob).toEqual([{ collection: "bob-notes" }]);
    stop();
    stopBob();
    bobsOwn.stop();
    // Unsubscribed, bob's first listener hears nothing more; a listener still there hears the next write.
    const after = nextChange(bob);
    await bob.remove("f", { collection: "bob-notes" });
    expect(await after.change).toEqual({ collection: "bob-notes" });
    expect(heardByBob).toEqual([{ collection: "bob-notes" }]);
    after.stop();
    await Promise.all([alice.close(), bob.close()]);
  });

  it("a notification carries the index, owner and collection, never the text", async () => {
    const writer = await openSearchIndex({ ...where, principal: "carol" });
    const payloads = await db.admin(async (client) => {
      const seen: string[] = [];
      const raw = client as unknown as { on: (e: string, f: (m: { payload: string }) => void) => void };
      raw.on("notification", (m) => seen.push(m.payload));
      await client.query("LISTEN quiver_search_changes");
      await writer.add([{ id: "g", text: "Carol's confidential sequence." }], { collection: "seq" });
      // The notification arrives when the listening connection next reads from the server.
      while (seen.length === 0) await client.query("SELECT pg_sleep(0.05)");
      return seen;
    });
    expect(payloads.map((p) => JSON.parse(p))).toEqual([
      { schema: db.schema, name: "repo", principal: "carol", collection: "seq" },
    ]);
    expect(payloads.join()).not.toContain("confidential");
    await writer.close();
  });

  it("listens again when its connection is lost, and says something may have changed", async () => {
    const erin = await openSearchIndex({ ...where, principal: "erin" });
    const heard: IndexChange[] = [];
    const stop = erin.watch((c) => heard.push(c));
    await listening(erin);
    heard.length = 0;
    // The server drops the listening connection (a restart, a proxy timeout): the index listens again.
    const dropped = await db.admin(
      async (c) =>
        (
          await c.query(
            "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
            ["quiver_search_watch"],
          )
        ).rows,
    );
    expect(dropped.length).toBeGreaterThan(0);
    while (heard.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard[0]).toEqual({});
    await listening(erin);
    stop();
    await erin.close();
  });

  it("closing the index ends its listening connection: a process that watched exits by itself", async () => {
    const run = promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { openSearchIndex } from ${JSON.stringify(DIST)};
         const index = await openSearchIndex({ ...${JSON.stringify(where)}, principal: "dan" });
         let heard;
         index.watch((change) => { heard = change; });
         // Writes until its own notification comes back: LISTEN was in place for the last one.
         while (heard === undefined) {
           await index.add([{ id: "h", text: "x" }], { collection: "c" });
           await new Promise((resolve) => setTimeout(resolve, 100));
         }
         console.log(JSON.stringify(heard));
         await index.close();`,
      ],
      { timeout: 20_000 },
    );
    await expect(run).resolves.toMatchObject({ stdout: '{"collection":"c"}\n' });
  });
});
