import { setting } from "@quiver/core";
import { z } from "zod";

/** The glossary plugin's settings. */
export const glossaryConfig = z.object({
  file: setting(z.string().min(1), { env: "GLOSSARY_FILE" }).describe(
    "The glossary: a JSON Lines file of { term, definition, source? }.",
  ),
});

/** The validated settings. */
export type GlossaryConfig = z.output<typeof glossaryConfig>;
