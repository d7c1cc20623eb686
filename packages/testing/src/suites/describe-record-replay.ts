import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalog, HttpClient, ToolResult } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorDispatcher } from "../emulator/emulator-dispatcher.js";
import type { Emulator } from "../emulator/start-emulator.js";
import { recordThenReplay, type SessionCall } from "../record/record-then-replay.js";

/** Cassettes kept in the repository: the recording must match them, and replay reads them. */
export interface CommittedCassettes {
  /** Their folder. */
  readonly dir: string;
  /** Record into `dir` (refresh them) instead of a temporary folder. */
  readonly update?: boolean;
  /** Removes what differs between two recordings (timings) before comparing texts. */
  readonly normalise?: (text: string) => string;
}

/** What `describeRecordReplay` runs. */
export interface RecordReplayOptions {
  /** The suite's title ("Context7 tool calls (HTTP API)"). */
  readonly title: string;
  /** Starts the upstream emulator, once for the suite (closed after it). */
  readonly start: () => Promise<Emulator>;
  /** A catalog with the plugin registered on `http`, pointing at `up`, with `canary` as its key. */
  readonly catalog: (http: HttpClient, up: Emulator) => Catalog;
  /** The session, recorded then replayed. */
  readonly calls: ReadonlyArray<SessionCall>;
  /** The statuses of the recorded envelopes, in order. */
  readonly statuses: ReadonlyArray<ToolResult["status"]>;
  /** The key the recording runs with: it must never appear in a cassette (omit for a keyless upstream). */
  readonly canary?: string;
  /** The fewest upstream requests the recording makes (default 1: it reached the emulator). */
  readonly recordedRequests?: number;
  /** How many cassettes the session writes (default: one per call); `{ atLeast }` for a lower bound. */
  readonly cassettes?: number | { readonly atLeast: number };
  /** Text every cassette contains (`"authorization": "[REDACTED]"`). */
  readonly cassettesContain?: ReadonlyArray<string>;
  /** Text no cassette contains besides the canary (a principal, a local address). */
  readonly cassettesOmit?: ReadonlyArray<string>;
  /** Record with the real upstream URLs (through `emulatorDispatcher`) and compare with these. */
  readonly committed?: CommittedCassettes;
}

const jsonFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .sort();

/**
 * Record/replay every network plugin passes: a session of calls recorded into cassettes (core's
 * cassette client, as `quiver serve --record`), then replayed with the network closed. The replay
 * gives the recorded envelopes, reaches no upstream, and no cassette holds the key (or what
 * `cassettesOmit` names). With `committed`, the recording must equal the committed cassettes and
 * the replay reads those.
 *
 * @example
 * describeRecordReplay({
 *   title: "rag_search over an HTTP RAG service",
 *   start: startRagEmulator,
 *   catalog: (http, up) => { const c = createCatalog({ http, env: {} }); c.register(createRagPlugin(), { serviceUrl: up.url, apiKey: CANARY }); return c },
 *   calls: [{ tool: "rag_search", input: { query: "examen" } }],
 *   statuses: ["success"],
 *   canary: CANARY,
 * })
 */
export const describeRecordReplay = (options: RecordReplayOptions): void => {
  let up: Emulator;
  beforeAll(async () => {
    up = await options.start();
  });
  afterAll(() => up?.close());

  describe(`${options.title} recorded and replayed (@quiver/record's cassette client)`, () => {
    it("replay with the network closed gives the recorded envelopes; no key in a cassette", async () => {
      const committed = options.committed;
      const r = await recordThenReplay({
        emulator: up,
        calls: options.calls,
        catalog: (http) => options.catalog(http, up),
        ...(committed
          ? {
              dispatcher: emulatorDispatcher(up),
              replayDir: committed.dir,
              ...(committed.update ? { dir: committed.dir } : {}),
            }
          : {}),
      });
      expect(r.live.map((e) => e.status)).toEqual(options.statuses);
      expect(r.replayed).toEqual(r.live);
      expect(r.upstreamRequestsDuringReplay).toBe(0);
      expect(up.requests.length).toBeGreaterThanOrEqual(options.recordedRequests ?? 1);
      const count = options.cassettes ?? options.calls.length;
      if (typeof count === "number") expect(r.cassettes.length).toBe(count);
      else expect(r.cassettes.length).toBeGreaterThanOrEqual(count.atLeast);
      const texts = r.cassettes.map(({ text }) => text);
      if (committed) {
        const same = committed.normalise ?? ((text: string) => text);
        const files = jsonFiles(committed.dir);
        expect(jsonFiles(r.dir)).toEqual(files);
        for (const f of files) {
          const text = readFileSync(join(committed.dir, f), "utf8");
          expect(same(readFileSync(join(r.dir, f), "utf8")), `${f} changed: record it again`).toBe(
            same(text),
          );
          texts.push(text);
        }
      }
      for (const text of texts) {
        if (options.canary) expect(text).not.toContain(options.canary);
        for (const part of options.cassettesContain ?? []) expect(text).toContain(part);
        for (const part of options.cassettesOmit ?? []) expect(text).not.toContain(part);
      }
    });
  });
};
