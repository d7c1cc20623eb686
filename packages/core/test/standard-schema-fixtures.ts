import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { z } from "zod";

/** The same search tool's input in valibot and in zod (for the Standard Schema tests). */
export const valibotInput = toStandardJsonSchema(
  v.object({
    query: v.pipe(v.string(), v.minLength(2), v.description("Free-text search")),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 5),
    tags: v.optional(v.array(v.string())),
    weights: v.optional(v.record(v.string(), v.number())),
    tenant: v.optional(v.string()),
    subject: v.optional(v.pipe(v.string(), v.minLength(3))),
  }),
);
export const zodInput = z.object({
  query: z.string().min(2).describe("Free-text search"),
  limit: z.int().min(1).max(50).default(5),
  tags: z.array(z.string()).optional(),
  weights: z.record(z.string(), z.number()).optional(),
  tenant: z.string().optional(),
  subject: z.string().min(3).optional(),
});
export const valibotOutput = toStandardJsonSchema(
  v.object({ query: v.string(), limit: v.number(), run: v.number(), tenant: v.optional(v.string()) }),
);
