import type { IncomingMessage } from "node:http";
import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import { bearerAuth } from "@quiver/mcp/server";
import type { ApiCaller, ApiRefusal } from "../auth/api-caller.js";
import type { HttpApiOptions } from "./api-options.js";

// What a request to the JSON API passes on its way to a route: its Host and Origin, who is calling,
// and (for the routes that take one) its JSON body.

/** The allowlist as the SDK compares it: it lowercases the request's hostname but not the list. */
const lowered = (list: ReadonlyArray<string>): string[] => list.map((h) => h.toLowerCase());

/**
 * DNS-rebinding protection for the JSON API, with the MCP endpoint's rules because it is the MCP SDK's
 * own check (`validateHostHeader`, `validateOriginHeader`): the `Host` header must name an allowed
 * hostname, and a browser `Origin`, when sent, too (port-agnostic; an unparsable or `null` Origin is
 * refused). Kept by hand, as the SDK does not: `"*"` turning a check off, the lowercased allowlist (config
 * is written by people), and the message naming the setting to change. Returns the reason to refuse, or
 * undefined.
 *
 * @example
 * const refuse = checkOrigin(req, ["localhost", "127.0.0.1", "[::1]"], ["localhost", "127.0.0.1", "[::1]"])
 */
export const checkOrigin = (
  req: IncomingMessage,
  allowedHosts: ReadonlyArray<string> | "*",
  allowedOrigins: ReadonlyArray<string> | "*",
): string | undefined => {
  if (allowedHosts !== "*" && !validateHostHeader(req.headers.host, lowered(allowedHosts)).ok) {
    return `Host ${JSON.stringify(req.headers.host ?? "")} is not allowed (server.allowedHosts).`;
  }
  if (allowedOrigins !== "*" && !validateOriginHeader(req.headers.origin, lowered(allowedOrigins)).ok) {
    return `Origin ${req.headers.origin} is not allowed (server.allowedOrigins).`;
  }
  return undefined;
};

/** Finds who is calling from a request's `Authorization` header, or the refusal to answer. */
export type ApiAuthenticator = (
  authorization: string | undefined,
) => ApiCaller | ApiRefusal | Promise<ApiCaller | ApiRefusal>;

const NONE: ReadonlyArray<string> = [];

/** A caller with no groups, no OAuth client and every scope: a static token's, or anyone's without tokens. */
const staticCaller = (principal: string | undefined): ApiCaller => ({
  principal,
  groups: NONE,
  clientId: undefined,
  scopes: undefined,
  missingScopes: () => NONE,
});

/**
 * The HTTP API's authentication, chosen once: the OAuth gate when `auth` (`auth.oidc`) is on, else the
 * static token lookup; with no tokens at all every request is the host's `principal`.
 *
 * @example
 * const authenticate = apiAuthenticator({ tokens: { "tok-abc": "alice" } })
 * await authenticate("Bearer tok-abc") // { principal: "alice", … }
 */
export const apiAuthenticator = (
  options: Pick<HttpApiOptions, "auth" | "tokens" | "principal">,
): ApiAuthenticator => {
  if (options.auth) return options.auth.authenticate;
  const tokens = options.tokens ?? {};
  if (Object.keys(tokens).length === 0) {
    const everyone = staticCaller(options.principal);
    return () => everyone;
  }
  const verify = bearerAuth(tokens);
  return (authorization) => {
    const verdict = verify(authorization);
    if (verdict.ok) return staticCaller(verdict.principal);
    return {
      status: 401,
      code: "unauthorized",
      message: verdict.message,
      fix: "Send Authorization: Bearer <token> with a token from the host's config (tokens).",
      headers: { "www-authenticate": 'Bearer realm="quiver"' },
    };
  };
};

/** A body that could not be read, with the HTTP status to answer. */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** How much of an oversized body is read and discarded (so the client reads the 413) before the socket is cut. */
const DISCARD_FACTOR = 4;

const parse = (chunks: Buffer[]): unknown => {
  let text: string;
  try {
    text = UTF8.decode(Buffer.concat(chunks)).trim();
  } catch {
    throw new BodyError(400, "invalid_encoding", "The request body is not valid UTF-8.");
  }
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BodyError(
      400,
      "invalid_json",
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
};

/**
 * Reads a request body as JSON (at most `limit` bytes); an empty body is `undefined`. A body that
 * is not valid UTF-8 is refused (400 `invalid_encoding`) rather than read with replacement
 * characters; a leading byte-order mark is skipped. Past the limit the rest is read and discarded
 * (up to four times the limit, then the socket is cut), so the client gets the 413 rather than a reset.
 *
 * @example
 * const body = await readJsonBody(req, 4 * 1024 * 1024)
 */
export const readJsonBody = (req: IncomingMessage, limit: number): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > limit * DISCARD_FACTOR) req.destroy();
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(new BodyError(413, "body_too_large", `The request body is larger than ${limit} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (over) return;
      try {
        resolve(parse(chunks));
      } catch (error) {
        reject(error);
      }
    });
    req.once("error", reject);
    req.once("close", () => {
      if (!req.complete) reject(new BodyError(400, "incomplete_body", "The request body ended early."));
    });
  });
