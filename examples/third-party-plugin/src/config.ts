import { z } from "zod";

/** The glossary plugin's settings. */
export const glossaryConfig = z.object({
  file: z.string().min(1).describe("The glossary: a JSON Lines file of { term, definition, source? }."),
});

/** The validated settings. */
export type GlossaryConfig = z.infer<typeof glossaryConfig>;
