import type { IncomingMessage } from "node:http";

const hostnameOf = (value: string): string | undefined => {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/**
 * DNS-rebinding protection for the JSON API, with the same rules as the MCP endpoint: the `Host`
 * header must name an allowed hostname, and a browser `Origin`, when sent, too (port-agnostic).
 * Returns the reason to refuse, or undefined.
 *
 * @example
 * const refuse = checkOrigin(req, ["localhost", "127.0.0.1", "[::1]"], ["localhost", "127.0.0.1", "[::1]"])
 */
export const checkOrigin = (
  req: IncomingMessage,
  allowedHosts: ReadonlyArray<string> | "*",
  allowedOrigins: ReadonlyArray<string> | "*",
): string | undefined => {
  const norm = (list: ReadonlyArray<string>) => new Set(list.map((h) => h.toLowerCase()));
  if (allowedHosts !== "*") {
    const host = req.headers.host ? hostnameOf(req.headers.host) : undefined;
    if (!host || !norm(allowedHosts).has(host)) {
      return `Host ${JSON.stringify(req.headers.host ?? "")} is not allowed (server.allowedHosts).`;
    }
  }
  const origin = req.headers.origin;
  if (origin && allowedOrigins !== "*") {
    const host = origin === "null" ? undefined : hostnameOf(origin);
    if (!host || !norm(allowedOrigins).has(host)) {
      return `Origin ${origin} is not allowed (server.allowedOrigins).`;
    }
  }
  return undefined;
};
