import type { ToolContext } from "@quiver/core";

/** The stages of a prediction, reported as progress 1…4 (fractions in between while ESMFold folds). */
const STAGES = 4;

/** Reports one stage of the prediction. */
export const stage = (ctx: Pick<ToolContext, "progress">, progress: number, message: string) =>
  ctx.progress({ progress, total: STAGES, message });
