import type { ToolContext } from "@quiver/core";
import type { AlphafoldConfig } from "../config.js";

/** The stages of a prediction, reported as progress 1…4 (fractions in between while ESMFold folds). */
export const STAGES = 4;

/** Reports one stage of the prediction. */
export const stage = (ctx: Pick<ToolContext, "progress">, progress: number, message: string) =>
  ctx.progress({ progress, total: STAGES, message });

/**
 * Reports progress every `progressIntervalMs` while a long step runs (ESMFold, expected to take up to
 * `esmfoldTimeoutMs`), always increasing and staying below the next stage. Returns a function that stops it.
 */
export const heartbeat = (
  ctx: Pick<ToolContext<AlphafoldConfig>, "progress" | "config">,
  from: number,
  label: string,
) => {
  const { progressIntervalMs, esmfoldTimeoutMs } = ctx.config;
  const started = Date.now();
  const timer = setInterval(() => {
    const elapsed = Date.now() - started;
    const fraction = Math.min(0.95, elapsed / Math.max(esmfoldTimeoutMs, 1));
    const message = `${label} (${Math.round(elapsed / 1000)} s elapsed)`;
    ctx.progress({ progress: from + fraction, total: STAGES, message });
  }, progressIntervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
};
