import { z } from "zod";
import { durationSchema as duration } from "./duration-schema.js";

const httpUrl = z.string().regex(/^https?:\/\/\S+$/, "expected an http:// or https:// URL");
const scopeToken = z
  .string()
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, "a scope is one word of printable characters");

/**
 * The config file's `auth` section: an OAuth 2.1 authorization server (`oidc`) whose access tokens
 * the HTTP API, MCP and the console accept, the scopes tools require, and the server's public URL.
 */
export const authSchema = z
  .object({
    /** The server's canonical URL as clients reach it (default `http://<host>:<port>`). */
    publicUrl: httpUrl.optional(),
    oidc: z
      .object({
        issuer: httpUrl,
        audience: z.union([httpUrl, z.array(httpUrl).min(1)]).optional(),
        principalClaim: z.string().min(1).optional(),
        groupsClaim: z.string().min(1).optional(),
        scopeClaim: z.string().min(1).optional(),
        algorithms: z
          .array(
            z.enum([
              "RS256",
              "RS384",
              "RS512",
              "PS256",
              "PS384",
              "PS512",
              "ES256",
              "ES384",
              "ES512",
              "EdDSA",
            ]),
          )
          .min(1)
          .optional(),
        clockTolerance: duration.optional(),
        jwksCooldown: duration.optional(),
        introspection: z
          .object({
            endpoint: httpUrl.optional(),
            clientId: z.string().min(1),
            /** `env:VAR` (recommended) or the secret itself. */
            clientSecret: z.string().min(1),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    /** Scopes a tool requires, by tool name, plugin id, or "*" for every tool. */
    scopes: z.record(z.string().min(1), z.array(scopeToken).min(1)).optional(),
  })
  .strict();
