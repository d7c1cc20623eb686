import { envelopeSchema as coreEnvelopeSchema } from "@quiver/core";
import type { z } from "zod";

/**
 * The result envelope as core defines it, plus the rules between fields that a well-formed call keeps:
 * an error status carries an error, a success does not, and the message is never empty.
 */
export const envelopeSchema = coreEnvelopeSchema.superRefine((e, ctx) => {
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
