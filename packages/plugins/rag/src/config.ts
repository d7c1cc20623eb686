import { resolve } from "node:path";
import { secret } from "@quiver/core";
import type * as Redacted from "effect/Redacted";
import { z } from "zod";

const url = z.string().regex(/^https?:\/\/\S+$/, "expected an http(s) URL");

/** Where the embedded index lives when RAG_INDEX_PATH is not set: `.quiver/rag-index.db` in the working directory. */
export const DEFAULT_INDEX_PATH = ".quiver/rag-index.db";

/** The rag plugin's settings (from options, the host's config file and environment variables). */
export const ragConfigSchema = z
  .object({
    backend: z
      .enum(["http", "embedded"])
      .optional()
      .describe(
        "http (a RAG service) or embedded (a local index); default: http when RAG_SERVICE_URL is set.",
      ),
    serviceUrl: url
      .optional()
      .describe("Base URL of the RAG service; the tool POSTs to {serviceUrl}/search."),
    apiKey: secret().optional().describe("API key of the RAG service, sent as a Bearer token."),
    timeoutMs: z.coerce.number().int().positive().default(10_000).describe("Deadline of one search request."),
    indexPath: z.string().min(1).default(DEFAULT_INDEX_PATH).describe("SQLite file of the embedded index."),
    defaultTopK: z.coerce
      .number()
      .int()
      .min(1)
      .max(50)
      .default(5)
      .describe("Results when top_k is not given."),
  })
  .superRefine((c, ctx) => {
    if (c.backend === "http" && !c.serviceUrl) {
      ctx.addIssue({
        code: "custom",
        path: ["serviceUrl"],
        message: "the http backend needs RAG_SERVICE_URL",
      });
    }
  });

/** The validated settings a tool receives as `ctx.config`. */
export interface RagConfig {
  readonly backend?: "http" | "embedded" | undefined;
  readonly serviceUrl?: string | undefined;
  readonly apiKey?: Redacted.Redacted<string> | undefined;
  readonly timeoutMs: number;
  readonly indexPath: string;
  readonly defaultTopK: number;
}

/** Environment variable of each setting. */
export const RAG_ENV = {
  backend: "RAG_BACKEND",
  serviceUrl: "RAG_SERVICE_URL",
  apiKey: "RAG_API_KEY",
  timeoutMs: "RAG_TIMEOUT_MS",
  indexPath: "RAG_INDEX_PATH",
  defaultTopK: "RAG_TOP_K",
} as const;

/** The backend the settings select. */
export const backendOf = (config: RagConfig): "http" | "embedded" =>
  config.backend ?? (config.serviceUrl ? "http" : "embedded");

/** The embedded index path, absolute. */
export const indexPathOf = (config: Pick<RagConfig, "indexPath">): string => resolve(config.indexPath);
