import * as Duration from "effect/Duration";

/**
 * A duration as a policy states it: milliseconds, Effect's own forms ("30 seconds", "1 minute"), or the
 * short forms used in tool definitions ("500ms", "30s", "5m", "1h", "2d").
 */
export type DurationInput = Duration.Input | `${number}${"ms" | "s" | "m" | "h" | "d"}`;

const SHORT = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Converts a policy duration to milliseconds. Throws on a malformed value (a definition error). */
export const toMillis = (input: DurationInput): number => {
  if (typeof input === "string") {
    const short = SHORT.exec(input.trim());
    if (short) return Number(short[1]) * UNIT_MS[short[2] as keyof typeof UNIT_MS];
  }
  return Duration.toMillis(Duration.fromInputUnsafe(input as Duration.Input));
};
