import { ERROR_KINDS } from "@quiver/core";
import { z } from "zod";

/** The result envelope as a zod schema: what every call must resolve with. */
export const envelopeSchema = z
  .object({
    status: z.enum(["success", "partial", "error", "timeout", "access_denied", "unavailable"]),
    message: z.string().min(1),
    data: z.unknown().optional(),
    instruction: z.string().optional(),
    error: z
      .object({
        kind: z.enum(ERROR_KINDS as [string, ...string[]]),
        message: z.string().min(1),
        retryable: z.boolean(),
        retryAfterMs: z.number().nonnegative().optional(),
      })
      .optional(),
    suggestion: z.string().optional(),
    guidance: z.string().optional(),
    escalate: z.boolean().optional(),
    confirmation: z.object({ token: z.string(), expiresAt: z.string(), preview: z.unknown() }).optional(),
    metadata: z.looseObject({
      tool: z.string(),
      plugin: z.string(),
      durationMs: z.number().nonnegative(),
      attempts: z.number().int().nonnegative(),
      cached: z.boolean(),
      truncated: z.boolean(),
    }),
  })
  .superRefine((e, ctx) => {
    const ok = e.status === "success" || e.status === "partial";
    if (!ok && !e.error) ctx.addIssue({ code: "custom", message: `status ${e.status} needs an error` });
    if (e.status === "success" && e.error)
      ctx.addIssue({ code: "custom", message: "success must not carry an error" });
  });

/** Asserts a value is a well-formed envelope; throws with the zod issues otherwise. */
export const assertEnvelope = (value: unknown): z.infer<typeof envelopeSchema> => {
  const parsed = envelopeSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `Not a valid envelope: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}\n${JSON.stringify(value, null, 2)}`,
    );
  }
  return parsed.data;
};
