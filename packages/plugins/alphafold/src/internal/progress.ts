import type { ToolContext } from "@quiver/core";

/** The stages of a prediction, reported as progress 1…4 (fractions in between while ESMFold folds). */
export const STAGES = 4;

/** Reports one stage of the prediction. */
export const stage = (ctx: Pick<ToolContext, "progress">, progress: number, message: string) =>
  ctx.progress({ progress, total: STAGES, message });

/**
 * Reports progress every `intervalMs` while a long step runs (ESMFold), always increasing and
 * staying below the next stage. Returns a function that stops it.
 */
export const heartbeat = (
  ctx: Pick<ToolContext, "progress">,
  from: number,
  intervalMs: number,
  expectedMs: number,
  label: string,
): (() => void) => {
  const started = Date.now();
  const timer = setInterval(() => {
    const elapsed = Date.now() - started;
    const fraction = Math.min(0.95, elapsed / Math.max(expectedMs, 1));
    ctx.progress({
      progress: from + fraction,
      total: STAGES,
      message: `${label} (${Math.round(elapsed / 1000)} s elapsed)`,
    });
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
};
