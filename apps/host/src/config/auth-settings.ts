import type { OidcOptions, ToolScopes } from "@quiver/mcp/server";
import * as Redacted from "effect/Redacted";
import type { z } from "zod";
import type { authSchema } from "./auth-schema.js";
import { ConfigError } from "./config-error.js";

/** Identity settings: the OAuth 2.1 authorization server, the scopes tools require, the public URL. */
export interface AuthSettings {
  /** The server's canonical URL (`auth.publicUrl`); undefined: `http://<host>:<port>` as bound. */
  readonly publicUrl: string | undefined;
  /** Access tokens from this provider are accepted (`auth.oidc`); undefined: static tokens only. */
  readonly oidc: OidcOptions | undefined;
  /** Scopes by tool name, plugin id or "*" (`auth.scopes`); they bind OAuth access tokens only. */
  readonly scopes: ToolScopes;
}

/**
 * The `auth` section as the host runs with it. The introspection client secret is read from the
 * environment when written `env:VAR`, and kept Redacted from here on.
 */
export const resolveAuthSettings = (
  auth: z.output<typeof authSchema> | undefined,
  env: Readonly<Record<string, string | undefined>>,
  fileName: string,
  warnings: string[],
): AuthSettings => {
  const oidc = auth?.oidc;
  let introspection: OidcOptions["introspection"];
  if (oidc?.introspection) {
    const { clientSecret, ...rest } = oidc.introspection;
    let secret = clientSecret;
    if (clientSecret.startsWith("env:")) {
      const variable = clientSecret.slice(4);
      const value = env[variable];
      if (!value)
        throw new ConfigError([
          `${fileName}: auth.oidc.introspection.clientSecret: ${variable} is not set; set it to the client secret the identity provider gave this server.`,
        ]);
      secret = value;
    } else {
      warnings.push(
        `${fileName}: auth.oidc.introspection.clientSecret is written in the file; prefer "env:VARIABLE" so the secret stays out of it.`,
      );
    }
    introspection = { ...rest, clientSecret: Redacted.make(secret) };
  }
  return {
    publicUrl: auth?.publicUrl?.replace(/\/$/, ""),
    // Durations were checked by the schema (toMillis reads them); their string type is wider than DurationInput.
    oidc: oidc
      ? ({ ...withoutIntrospection(oidc), ...(introspection ? { introspection } : {}) } as OidcOptions)
      : undefined,
    scopes: auth?.scopes ?? {},
  };
};

const withoutIntrospection = <T extends { introspection?: unknown }>({ introspection: _, ...rest }: T) =>
  rest;
