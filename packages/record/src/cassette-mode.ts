/**
 * `record`: send every request and write one cassette per tool call; `replay`: answer every
 * request of a tool call from its cassette, never touching the network; `replay-or-record`: replay
 * calls that have a cassette, record the others.
 */
export type CassetteMode = "record" | "replay" | "replay-or-record";

/** The modes of {@link createCassetteHttpClient}, for option parsers. */
export const CASSETTE_MODES: ReadonlyArray<CassetteMode> = ["record", "replay", "replay-or-record"];
