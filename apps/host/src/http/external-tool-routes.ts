import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { externalToolCatalogue } from "@quiver/adapters/seeds";
import type { TaskRunner } from "@quiver/tasks";
import type { HostProfile } from "../profiles/host-profile.js";
import { sendError, sendJson } from "./json-response.js";
import { readJsonBody } from "./request-guard.js";
import { deadlineOf, prefersAsync, sendAccepted } from "./respond-async.js";

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
  /** Runs a request sent with `Prefer: respond-async` as a task (`202`, polled at its `Location`). */
  readonly tasks?: TaskRunner | undefined;
}

/** The grace a task gets past its request's `timeout_seconds`, so the executor's own TIMEOUT answer (with what it found) is kept. */
const DEADLINE_GRACE_MS = 5_000;

/**
 * The co-scientist's External Tools Interface (`--profile co-scientist`): `GET /external-tools`
 * lists the catalogue, `POST /external-tools/execute` answers an `ExternalToolRequest` with its
 * `ExternalToolResponse` (200 for every status; a body that is not JSON is 400). With
 * `Prefer: respond-async` (and a task runner) it answers `202` with a `Location` to poll for that
 * response; the task's deadline is the request's `timeout_seconds` (default 300) and a little more.
 *
 * @example
 * if (parts[0] === "external-tools")
 *   await externalToolRoutes(profile, { req, res, parts, method: "POST", principal: "alice", maxBodyBytes: 1_000_000 });
 */
export const externalToolRoutes = async (
  profile: HostProfile,
  { req, res, parts, method, principal, maxBodyBytes, tasks }: ExternalToolRouteRequest,
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
  if (tasks && prefersAsync(req)) {
    const seconds = (body as { timeout_seconds?: unknown } | null)?.timeout_seconds;
    const deadline = deadlineOf(seconds);
    const task = await tasks.start("execute_external_tool", body, {
      session: {
        id: typeof session === "string" ? session : `task-${randomUUID()}`,
        ...(principal !== undefined ? { principal } : {}),
      },
      // A bad timeout_seconds is the executor's to refuse, in the task's answer.
      deadlineMs: (typeof deadline === "number" ? deadline : 300_000) + DEADLINE_GRACE_MS,
    });
    return sendAccepted(res, task);
  }
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
