import { z } from "zod";

/** The plugin's settings. */
export const repoConfigSchema = z.object({
  indexPath: z
    .string()
    .min(1)
    .default(".quiver/private-repo")
    .describe(
      "The repository folder: repo.db (collections, sharing, audit log) and one index per collection.",
    ),
});

/** The parsed settings of the private-repository plugin. */
export type RepoConfig = z.output<typeof repoConfigSchema>;
