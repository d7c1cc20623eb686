import { toMillis } from "@quiver/core";
import { z } from "zod";

/** A duration in the config file: "30s", "5m", "1 minute" or milliseconds. */
export const durationSchema = z.union([z.string(), z.number().nonnegative()]).refine(
  (v) => {
    try {
      return Number.isFinite(toMillis(v as never));
    } catch {
      return false;
    }
  },
  { message: 'expected a duration such as "30s", "5m", "1 minute" or milliseconds' },
);
