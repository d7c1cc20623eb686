import { secret, setting } from "@quiver/core";
import { z } from "zod";
import type { setupPrivateRepo } from "./setup.js";

/** The plugin's settings. */
export const repoConfigSchema = z.object({
  indexPath: setting(z.string().min(1).default(".quiver/private-repo"), {
    env: "QUIVER_PRIVATE_REPO",
  }).describe(
    "The repository folder (without a database): repo.db (collections, sharing, audit log) and one index per collection.",
  ),
  importPath: setting(z.string().min(1).optional(), { env: "QUIVER_PRIVATE_REPO_IMPORTS" }).describe(
    "The folder private_repo_add_folder reads from: each scientist's own sub-folder (<importPath>/<principal>/); default <indexPath>/imports.",
  ),
  databaseUrl: secret({ env: "DATABASE_URL" })
    .optional()
    .describe(
      "PostgreSQL URL (postgres://...): the registry and the collections' indexes live there, each index under row-level security for its owner; default SQLite files in indexPath.",
    ),
  databaseSchema: setting(
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, "expected a plain identifier (letters, digits, _)")
      .default("quiver_search"),
    { env: "QUIVER_SEARCH_SCHEMA" },
  ).describe("The PostgreSQL schema of the registry and the indexes, created when missing."),
});

/** The parsed settings of the private-repository plugin. */
export type PrivateRepoConfig = z.output<typeof repoConfigSchema>;

/** What the private-repo tools, command and health check share (`ctx.resources`): the repository, opened once. */
export type RepoResources = ReturnType<typeof setupPrivateRepo>;
