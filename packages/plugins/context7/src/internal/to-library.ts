import type { z } from "zod";
import type { LibraryMatch } from "./docs-client.js";
import type { LibrarySchema } from "./upstream-schemas.js";

/** An upstream `Library` as a {@link LibraryMatch}, dropping nulls and the "unknown" markers (-1). */
export const toLibrary = (raw: z.output<typeof LibrarySchema>): LibraryMatch => {
  const known = (n: number | null | undefined): n is number => typeof n === "number" && n >= 0;
  return {
    id: raw.id,
    title: raw.title,
    ...(raw.description ? { description: raw.description } : {}),
    ...(known(raw.trustScore) ? { trustScore: raw.trustScore } : {}),
    ...(known(raw.benchmarkScore) && raw.benchmarkScore > 0 ? { benchmarkScore: raw.benchmarkScore } : {}),
    ...(known(raw.totalSnippets) ? { snippets: raw.totalSnippets } : {}),
    ...(known(raw.stars) ? { stars: raw.stars } : {}),
    ...(raw.versions && raw.versions.length > 0 ? { versions: raw.versions } : {}),
    ...(raw.lastUpdateDate ? { lastUpdated: raw.lastUpdateDate } : {}),
    ...(raw.state ? { state: raw.state } : {}),
  };
};
