import { resolve } from "node:path";
import { reveal, secret, setting } from "@quiver/core";
import type { OpenPostgresSearchIndexOptions, OpenSearchIndexOptions } from "@quiver/search";
import { z } from "zod";

const url = z.string().regex(/^https?:\/\/\S+$/, "expected an http(s) URL");
const identifier = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, "expected a plain identifier (letters, digits, _)");

/** Where the embedded index lives when RAG_INDEX_PATH is not set: `.quiver/rag-index.db` in the working directory. */
export const DEFAULT_INDEX_PATH = ".quiver/rag-index.db";

/** The rag plugin's settings (from options, the host's config file and environment variables). */
export const ragConfigSchema = z
  .object({
    backend: setting(z.enum(["http", "embedded"]).optional(), { env: "RAG_BACKEND" }).describe(
      "http (a RAG service) or embedded (a local index); default: http when RAG_SERVICE_URL is set.",
    ),
    serviceUrl: setting(url.optional(), { env: "RAG_SERVICE_URL" }).describe(
      "Base URL of the RAG service; the tool POSTs to {serviceUrl}/search.",
    ),
    apiKey: secret({ env: "RAG_API_KEY" })
      .optional()
      .describe("API key of the RAG service, sent as a Bearer token."),
    timeoutMs: setting(z.coerce.number().int().positive().default(10_000), {
      env: "RAG_TIMEOUT_MS",
    }).describe("Deadline of one search request."),
    indexPath: setting(z.string().min(1).default(DEFAULT_INDEX_PATH), { env: "RAG_INDEX_PATH" }).describe(
      "SQLite file of the embedded index.",
    ),
    databaseUrl: secret({ env: "DATABASE_URL" })
      .optional()
      .describe(
        "PostgreSQL URL (postgres://...): the embedded index lives there instead of the SQLite file, shared by every replica.",
      ),
    databaseSchema: setting(identifier.default("quiver_search"), { env: "QUIVER_SEARCH_SCHEMA" }).describe(
      "The PostgreSQL schema of the index, created when missing.",
    ),
    indexName: setting(z.string().min(1).default("rag"), { env: "RAG_INDEX_NAME" }).describe(
      "The index's name in the PostgreSQL schema (several indexes can share one schema).",
    ),
    defaultTopK: setting(z.coerce.number().int().min(1).max(50).default(5), { env: "RAG_TOP_K" }).describe(
      "Results when top_k is not given.",
    ),
  })
  .refine((c) => c.backend !== "http" || c.serviceUrl, {
    path: ["serviceUrl"],
    message: "the http backend needs RAG_SERVICE_URL",
  });

/** The validated settings a tool receives as `ctx.config`. */
export type RagConfig = z.output<typeof ragConfigSchema>;

/** The backend the settings select. */
export const backendOf = (config: RagConfig): "http" | "embedded" =>
  config.backend ?? (config.serviceUrl ? "http" : "embedded");

/** Where the embedded index lives: a SQLite file, or an index in a PostgreSQL schema. */
export type IndexLocation = OpenSearchIndexOptions | OpenPostgresSearchIndexOptions;

/** The embedded index's location: PostgreSQL when `databaseUrl` (DATABASE_URL) is set, else the SQLite file (absolute). */
export const indexLocationOf = (config: RagConfig): IndexLocation =>
  config.databaseUrl
    ? // The one plain read of the secret: the PostgreSQL driver needs the URL itself.
      { databaseUrl: reveal(config.databaseUrl), schema: config.databaseSchema, name: config.indexName }
    : { path: resolve(config.indexPath) };

/** A location for messages: the file, or `postgres://host:port/database#schema.name` (no credentials). */
export const describeLocation = (location: IndexLocation): string => {
  if ("path" in location) return location.path;
  const u = URL.parse(location.databaseUrl);
  return `${u ? `${u.protocol}//${u.host}${u.pathname}` : "postgres"}#${location.schema}.${location.name}`;
};
