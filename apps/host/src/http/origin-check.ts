import type { IncomingMessage } from "node:http";
import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";

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
