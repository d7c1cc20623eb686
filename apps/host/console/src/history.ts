import type { ConsoleStats, ToolStats } from "./api";

/** One poll of one tool's figures. */
export interface Sample {
  /** Seconds (epoch). */
  t: number;
  stats: ToolStats;
}

/** How many polls each tool keeps (3 minutes at one a second). */
export const HISTORY_LENGTH = 180;

/** Polls closer together than this (an extra poll after a call) replace the last sample. */
const MIN_GAP_S = 0.5;

/**
 * Adds a poll to every tool's history, dropping the oldest past HISTORY_LENGTH. A poll right after
 * the previous one replaces it, so a rate is never taken over a sliver of time.
 */
export const addSample = (history: Map<string, Sample[]>, stats: ConsoleStats): Map<string, Sample[]> => {
  const next = new Map(history);
  const t = stats.at / 1000;
  for (const s of stats.tools) {
    const old = next.get(s.tool) ?? [];
    const last = old[old.length - 1];
    const kept = last && t - last.t < MIN_GAP_S ? old.slice(0, -1) : old;
    const list = [...kept, { t, stats: s }];
    next.set(s.tool, list.length > HISTORY_LENGTH ? list.slice(-HISTORY_LENGTH) : list);
  }
  return next;
};

/** Per-second rates of a cumulative counter between consecutive samples (0 for the first). */
export const ratesOf = (samples: Sample[], count: (s: ToolStats) => number): number[] =>
  samples.map((s, i) => {
    const prev = samples[i - 1];
    if (!prev) return 0;
    const dt = s.t - prev.t;
    return dt > 0 ? Math.max(0, (count(s.stats) - count(prev.stats)) / dt) : 0;
  });

/** The breaker's state as a level: 0 closed (or none), 1 half-open, 2 open. */
export const breakerLevel = (b: ToolStats["breaker"]): number =>
  b === "Open" ? 2 : b === "HalfOpen" ? 1 : 0;
