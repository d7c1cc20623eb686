import type { ServerResponse } from "node:http";
import type { BearerVerdict } from "@quiver/mcp/server";
import { sendJson } from "../http/json-response.js";
import type { ApiAuth, ApiCaller, ApiRefusal } from "./api-caller.js";

const NONE: ReadonlyArray<string> = [];

/**
 * The HTTP API's caller: through the OAuth gate when `auth.oidc` is on, else through the static
 * token lookup (whose callers have no groups, no client and every scope).
 */
export const authenticateApi = async (
  auth: ApiAuth | undefined,
  staticTokens: (authorization: string | undefined) => BearerVerdict,
  authorization: string | undefined,
): Promise<ApiCaller | ApiRefusal> => {
  if (auth) return auth.authenticate(authorization);
  const verdict = staticTokens(authorization);
  if (!verdict.ok)
    return {
      status: 401,
      code: "unauthorized",
      message: verdict.message,
      fix: "Send Authorization: Bearer <token> with a token from the host's config (tokens).",
      headers: { "www-authenticate": 'Bearer realm="quiver"' },
    };
  return {
    principal: verdict.principal,
    groups: NONE,
    clientId: undefined,
    scopes: undefined,
    missingScopes: () => NONE,
  };
};

/** Answers a Protected Resource Metadata request (true), or leaves the path to the routes (false). */
export const sendMetadata = async (
  auth: ApiAuth,
  res: ServerResponse,
  method: string,
  path: string,
): Promise<boolean> => {
  const response = auth.metadata(method, path);
  if (!response) return false;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  sendJson(res, response.status, await response.json(), headers);
  return true;
};
