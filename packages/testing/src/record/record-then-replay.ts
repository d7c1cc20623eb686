import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallOptions, Catalog, HttpClient, ToolResult } from "@quiver/core";
import { createCassetteHttpClient } from "@quiver/record";
import type { Dispatcher } from "undici";
import type { Emulator } from "../emulator/start-emulator.js";

/** One call of a recorded session. */
export interface SessionCall {
  readonly tool: string;
  readonly input: unknown;
  readonly options?: CallOptions;
}

/** Options of {@link recordThenReplay}. */
export interface RecordThenReplayOptions {
  /** The emulator standing in for the upstreams (its request log shows replay never reached it). */
  readonly emulator: Pick<Emulator, "requests">;
  /** A catalog with the plugin registered, built on the given HTTP client (closed by the helper). */
  readonly catalog: (http: HttpClient) => Catalog;
  /** The session, called in order while recording and again while replaying. */
  readonly calls: ReadonlyArray<SessionCall>;
  /** The cassette folder (default: a new temporary folder). */
  readonly dir?: string;
  /** Record through this dispatcher, e.g. `emulatorDispatcher(up)` to keep real upstream URLs. */
  readonly dispatcher?: Dispatcher;
  /** Replay from this folder (committed cassettes) instead of the one just recorded. */
  readonly replayDir?: string;
}

/** What {@link recordThenReplay} saw. */
export interface RecordThenReplayResult {
  /** The envelopes of the recording run, without `callId` and `durationMs`. */
  readonly live: ReadonlyArray<ToolResult>;
  /** The envelopes of the replay, without `callId` and `durationMs`. */
  readonly replayed: ReadonlyArray<ToolResult>;
  /** Requests the emulator received while replaying (0 when replay stayed off the network). */
  readonly upstreamRequestsDuringReplay: number;
  readonly dir: string;
  /** Every cassette written: path and text. */
  readonly cassettes: ReadonlyArray<{ readonly path: string; readonly text: string }>;
}

/**
 * An envelope without what differs between any two calls: the call id, the duration, and the
 * unguessable part of a spilled artifact's link (`quiver://result/<id>/…`).
 */
export const comparableEnvelope = (result: ToolResult): ToolResult => {
  const { callId: _id, durationMs: _ms, ...metadata } = result.metadata;
  const content = metadata.content?.map((part) =>
    part.type === "resource_link"
      ? { ...part, uri: part.uri.replace(/^(quiver:\/\/result\/)[^/]+/, "$1…") }
      : part,
  );
  return { ...result, metadata: { ...metadata, ...(content ? { content } : {}) } as ToolResult["metadata"] };
};

const run = async (catalog: Catalog, calls: ReadonlyArray<SessionCall>) => {
  const out: ToolResult[] = [];
  try {
    for (const c of calls) out.push(comparableEnvelope(await catalog.call(c.tool, c.input, c.options)));
  } finally {
    await catalog.close();
  }
  return out;
};

/**
 * Records a session of tool calls into cassettes (`@quiver/record`'s cassette client, as `quiver serve --record`),
 * then replays it from them with no network, and returns both runs' envelopes, the cassettes and
 * how many requests reached the emulator during the replay. Assert
 * `expect(r.replayed).toEqual(r.live)` and `expect(r.upstreamRequestsDuringReplay).toBe(0)`.
 *
 * @example
 * const r = await recordThenReplay({ emulator: up, calls, catalog: (http) => {
 *   const c = createCatalog({ http, env: {} }); c.register(createMyPlugin(), { baseUrl: up.url }); return c;
 * } });
 */
export const recordThenReplay = async (options: RecordThenReplayOptions): Promise<RecordThenReplayResult> => {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "quiver-cassettes-"));
  const record = createCassetteHttpClient({
    dir,
    mode: "record",
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const live = await run(options.catalog(record), options.calls).finally(() => record.close());
  const before = options.emulator.requests.length;
  const replay = createCassetteHttpClient({ dir: options.replayDir ?? dir, mode: "replay" });
  const replayed = await run(options.catalog(replay), options.calls).finally(() => replay.close());
  const cassettes = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ path: join(dir, f), text: readFileSync(join(dir, f), "utf8") }));
  return {
    live,
    replayed,
    upstreamRequestsDuringReplay: options.emulator.requests.length - before,
    dir,
    cassettes,
  };
};
