import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { externalToolCatalogue } from "@quiver/adapters/seeds";
import type { HostProfile } from "../profiles/host-profile.js";
import { sendError, sendJson } from "./json-response.js";
import { readJsonBody } from "./request-guard.js";

/** One request to the co-scientist's routes, as the API's router has parsed it. */
export interface ExternalToolRouteRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The path's segments, `external-tools` first. */
  readonly parts: ReadonlyArray<string>;
  readonly method: string;
  readonly principal: string | undefined;
  /** Largest body in bytes. */
  readonly maxBodyBytes: number;
}

/**
 * The co-scientist's External Tools Interface (`--profile co-scientist`): `GET /external-tools`
 * lists the catalogue, `POST /external-tools/execute` answers an `ExternalToolRequest` with its
 * `ExternalToolResponse` (200 for every status; a body that is not JSON is 400).
 *
 * @example
 * if (parts[0] === "external-tools")
 *   await externalToolRoutes(profile, { req, res, parts, method: "POST", principal: "alice", maxBodyBytes: 1_000_000 });
 */
export const externalToolRoutes = async (
  profile: HostProfile,
  { req, res, parts, method, principal, maxBodyBytes }: ExternalToolRouteRequest,
): Promise<void> => {
  if (parts.length === 1 && (method === "GET" || method === "HEAD"))
    return sendJson(res, 200, { tools: externalToolCatalogue() });
  if (parts.length !== 2 || parts[1] !== "execute") {
    return sendError(res, 404, "not_found", `No route ${method} /${parts.join("/")}.`, {
      fix: "GET /external-tools lists the tools; POST /external-tools/execute runs an ExternalToolRequest.",
    });
  }
  if (method !== "POST")
    return sendError(res, 405, "method_not_allowed", "Use POST with an ExternalToolRequest.", {
      headers: { allow: "POST" },
    });
  const body = await readJsonBody(req, maxBodyBytes);
  if (body === undefined)
    return sendError(res, 400, "invalid_json", "The body must be an ExternalToolRequest (JSON).");
  const session = req.headers["x-quiver-session"];
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) controller.abort(new Error("The client disconnected."));
  };
  res.once("close", onClose);
  const value = await profile.call(profile.find("execute_external_tool")!, body, {
    session: {
      id: typeof session === "string" ? session : `one-shot-${randomUUID()}`,
      ...(principal !== undefined ? { principal } : {}),
    },
    signal: controller.signal,
  });
  res.off("close", onClose);
  if (!res.destroyed) sendJson(res, 200, value);
};
