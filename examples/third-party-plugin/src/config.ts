import { z } from "zod";

/** The glossary plugin's settings. */
export const glossaryConfig = z.object({
  file: z.string().min(1).describe("The glossary: a JSON Lines file of { term, definition, source? }."),
});

/** The validated settings. */
export type GlossaryConfig = z.output<typeof glossaryConfig>;

/** Environment variable of each setting. */
export const GLOSSARY_ENV = { file: "GLOSSARY_FILE" } as const;
