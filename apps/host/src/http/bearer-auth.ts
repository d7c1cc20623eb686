import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** The verdict on a request's credentials. */
export type AuthVerdict =
  | { readonly ok: true; readonly principal: string | undefined }
  | { readonly ok: false; readonly message: string };

/**
 * Bearer-token authentication over a token → principal map (the same map the MCP endpoint uses).
 * With no tokens configured every request passes as `fallback`. Tokens are compared by SHA-256 so
 * timing reveals nothing about them.
 *
 * @example
 * const auth = bearerAuth({ "tok-abc": "alice" })
 * auth(req) // { ok: true, principal: "alice" } for "Authorization: Bearer tok-abc"
 */
export const bearerAuth = (
  tokens: Readonly<Record<string, string>>,
  fallback?: string,
): ((req: IncomingMessage) => AuthVerdict) => {
  const byHash = new Map(Object.entries(tokens).map(([t, p]) => [sha256(t), p]));
  if (byHash.size === 0) return () => ({ ok: true, principal: fallback });
  return (req) => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return { ok: false, message: "Missing bearer token: send Authorization: Bearer <token>." };
    const principal = byHash.get(sha256(match[1]!));
    if (principal === undefined) return { ok: false, message: "Unknown bearer token." };
    return { ok: true, principal };
  };
};
