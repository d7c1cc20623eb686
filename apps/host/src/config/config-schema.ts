import { z } from "zod";
import { authSchema } from "./auth-schema.js";
import { durationSchema as duration } from "./duration-schema.js";
import { tasksSchema } from "./task-settings.js";

const retry = z.union([
  z.literal(false),
  z
    .object({
      times: z.number().int().min(0).optional(),
      base: duration.optional(),
      maxElapsed: duration.optional(),
    })
    .strict(),
]);
const cache = z.union([
  z.literal(false),
  z.object({ ttl: duration, capacity: z.number().int().positive().optional() }).strict(),
]);
const oneRateLimit = z
  .object({
    key: z.string().min(1).optional(),
    limit: z.number().int().positive(),
    window: duration,
    perPrincipal: z.boolean().optional(),
    onExceeded: z.enum(["fail", "delay"]).optional(),
  })
  .strict();
// Several limits apply together (e.g. a per-minute and a per-day quota), as in core's ToolPolicy.
const rateLimit = z.union([z.literal(false), oneRateLimit, z.array(oneRateLimit).min(1)]);
const breaker = z.union([
  z.literal(false),
  z
    .object({
      key: z.string().min(1).optional(),
      failures: z.number().int().positive().optional(),
      openFor: duration.optional(),
    })
    .strict(),
]);

/** One tool's policy override, as the config file states it (the fields of core's ToolPolicy). */
export const policySchema = z
  .object({
    timeout: duration.optional(),
    retry: retry.optional(),
    cache: cache.optional(),
    rateLimit: rateLimit.optional(),
    breaker: breaker.optional(),
    fallback: z
      .object({ tool: z.string().optional(), stale: z.boolean().optional(), guidance: z.string().optional() })
      .strict()
      .optional(),
    maxOutputChars: z.number().int().positive().optional(),
    escalateAfter: z.number().int().positive().optional(),
  })
  .strict();

const pluginEntry = z.union([
  z.boolean(),
  z
    .object({
      enabled: z.boolean().optional(),
      options: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
]);

const hostList = z.union([z.literal("*"), z.array(z.string().min(1))]);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** `{ alias: toolName }`: each alias a valid tool name, standing for a tool (not another alias). */
const aliases = z
  .record(z.string(), z.string().regex(TOOL_NAME, "expected the name of a tool"))
  .superRefine((map, ctx) => {
    for (const [alias, tool] of Object.entries(map)) {
      if (!TOOL_NAME.test(alias))
        ctx.addIssue({
          code: "custom",
          path: [alias],
          message: "an alias is a tool name: 1-64 letters, digits, _ or -",
        });
      if (alias === tool)
        ctx.addIssue({ code: "custom", path: [alias], message: "an alias cannot stand for itself" });
      else if (Object.hasOwn(map, tool))
        ctx.addIssue({
          code: "custom",
          path: [alias],
          message: `"${tool}" is another alias: name the tool itself`,
        });
    }
  });

const stores = z
  .object({
    redis: z
      .object({
        url: z.string().regex(/^rediss?:\/\/\S+$/, "expected a redis:// or rediss:// URL"),
        prefix: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const stringMap = z.record(z.string(), z.string());
/** An `mcpServers` entry as MCP clients write it: stdio (command, args, env) or HTTP (url, headers). */
const mcpServer = z.union([
  z
    .object({
      type: z.literal("stdio").optional(),
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: stringMap.optional(),
      cwd: z.string().min(1).optional(),
    })
    .strict(),
  z
    .object({
      type: z.enum(["http", "streamable-http", "streamableHttp"]).optional(),
      url: z.string().regex(/^https?:\/\/\S+$/, "expected an http:// or https:// URL"),
      headers: stringMap.optional(),
    })
    .strict(),
]);
const mcpServers = z.record(
  z.string().regex(/^[a-zA-Z0-9_-]{1,32}$/, "a server name is 1-32 letters, digits, _ or -"),
  mcpServer,
);

/**
 * The schema of `quiver.config.{json,yaml}`. Every key is optional; unknown keys are errors (a typo
 * should not be silently ignored).
 */
export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    demo: z
      .union([
        z.boolean(),
        z
          .object({
            enabled: z.boolean().optional(),
            cacheDir: z.string().min(1).optional(),
          })
          .strict(),
      ])
      .optional(),
    discover: z.boolean().optional(),
    /** A seed system's profile to serve (`code-agent`, `chatbot`, `co-scientist`); `--profile` wins. */
    profile: z.string().min(1).optional(),
    /** Alias sets the plugins declare, served over MCP (e.g. `["context7-mcp"]`); `--alias-set` wins. */
    aliasSets: z.array(z.string().min(1)).optional(),
    projects: z.array(z.string().min(1)).min(1).optional(),
    plugins: z.record(z.string(), pluginEntry).optional(),
    load: z.array(z.string().min(1)).optional(),
    policies: z.record(z.string(), policySchema).optional(),
    tokens: z.record(z.string().min(1), z.string().min(1)).optional(),
    principal: z.string().min(1).optional(),
    find: z.boolean().optional(),
    aliases: aliases.optional(),
    mcpServers: mcpServers.optional(),
    stores: stores.optional(),
    /** Tasks (`Prefer: respond-async`, MCP tasks): their default deadline and one per tool. */
    tasks: tasksSchema.optional(),
    auth: authSchema.optional(),
    server: z
      .object({
        host: z.string().min(1).optional(),
        port: z.number().int().min(0).max(65_535).optional(),
        allowedOrigins: hostList.optional(),
        allowedHosts: hostList.optional(),
        shutdownTimeout: duration.optional(),
        stateless: z.boolean().optional(),
        maxSessionsPerPrincipal: z.number().int().positive().optional(),
        maxSessions: z.number().int().positive().optional(),
        sessionIdleTimeout: duration.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** The config file as written (after validation). */
export type ConfigFile = z.output<typeof configFileSchema>;
