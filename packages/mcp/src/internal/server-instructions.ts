import type { Catalog } from "@quiver/core";

/**
 * The server's instructions: the host's own (`base`, e.g. how to find a tool), then each plugin's
 * paragraph (its `instructions` slot: when to use its tools, and when not), one paragraph each, in
 * registration order. Undefined when there is nothing to say.
 */
export const serverInstructions = (base: string | undefined, catalog: Catalog): string | undefined => {
  const paragraphs = [base, ...catalog.plugins().map((p) => p.slots?.instructions)]
    .map((p) => p?.trim())
    .filter((p): p is string => p !== undefined && p.length > 0);
  return paragraphs.length > 0 ? paragraphs.join("\n\n") : undefined;
};
