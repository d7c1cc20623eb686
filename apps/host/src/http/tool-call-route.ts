import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type SessionContext, type TraceContext, traceContextOf } from "@quiver/core";
import { toCallToolResult } from "@quiver/mcp/server";
import type { ApiCaller } from "../auth/api-caller.js";
import { parseSessionValues, SESSION_VALUES_HEADER } from "../profiles/session-values.js";
import type { ApiRoute } from "./api-routes.js";
import { sendError, sendJson } from "./json-response.js";
import { readJsonBody } from "./request-guard.js";
import { deadlineOf, prefersAsync, sendAccepted } from "./respond-async.js";

const WRAPPER_KEYS = new Set(["input", "session", "timeoutMs", "timeout_seconds"]);

/** The options a call is made with, but its signal. */
interface CallSettings {
  readonly session: SessionContext;
  readonly timeoutMs?: number;
  /** The caller's trace (its `traceparent` and `tracestate` headers). */
  readonly trace?: TraceContext;
}

/** How long the request may run in all (`timeout_seconds`): a task's deadline, else the call's limit. */
type Deadline = { readonly deadlineMs?: number };

/** A call's input and settings, read from its body and headers; or the 400 to answer. */
type CallRequest =
  | ({ readonly ok: true; readonly input: unknown; readonly settings: CallSettings } & Deadline)
  | { readonly ok: false; readonly code: string; readonly message: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads `POST /tools/:name/call`: the body is the input, or a wrapper
 * `{ input, session?, timeoutMs?, timeout_seconds? }`;
 * the session id and values and the time limit may also come as headers (the body's win). The
 * session-values header is parsed only when it is sent.
 */
const readCallRequest = (req: IncomingMessage, body: unknown, caller: ApiCaller): CallRequest => {
  const { principal, groups, clientId, scopes } = caller;
  const wrapper =
    isObject(body) && "input" in body && Object.keys(body).every((k) => WRAPPER_KEYS.has(k))
      ? (body as { input: unknown; session?: unknown; timeoutMs?: unknown; timeout_seconds?: unknown })
      : undefined;
  const session = wrapper?.session ?? {};
  if (!isObject(session))
    return { ok: false, code: "invalid_session", message: "session must be an object: { id?, values? }." };
  // Read only when sent, as the headers below: a plain call has no task deadline to check.
  const deadlineMs = wrapper?.timeout_seconds === undefined ? undefined : deadlineOf(wrapper.timeout_seconds);
  if (deadlineMs instanceof Error) return { ok: false, code: "invalid_timeout", message: deadlineMs.message };
  const header = req.headers[SESSION_VALUES_HEADER];
  const headerValues = typeof header === "string" ? parseSessionValues(header) : undefined;
  if (headerValues instanceof Error)
    return { ok: false, code: "invalid_session", message: headerValues.message };
  const bodyValues =
    typeof session.values === "object" && session.values !== null
      ? (session.values as Record<string, unknown>)
      : undefined;
  const values = headerValues || bodyValues ? { ...headerValues, ...bodyValues } : undefined;
  const timeoutMs = callTimeout(req, wrapper?.timeoutMs);
  // Read only when the caller sent one: most calls join no trace.
  const trace = req.headers.traceparent === undefined ? undefined : traceContextOf(req.headers);
  return {
    ok: true,
    input: wrapper ? wrapper.input : (body ?? {}),
    ...(deadlineMs !== undefined ? { deadlineMs } : {}),
    settings: {
      session: {
        id: sessionId(req, session.id),
        ...(principal !== undefined ? { principal } : {}),
        ...(groups.length > 0 ? { groups } : {}),
        ...(clientId !== undefined ? { clientId } : {}),
        ...(scopes !== undefined ? { scopes } : {}),
        ...(values ? { values } : {}),
      },
      ...(timeoutMs !== undefined ? { timeoutMs: timeoutMs as number } : {}),
      ...(trace ? { trace } : {}),
    },
  };
};

/**
 * The call's session id: the body's, the X-Quiver-Session header's, or a one-shot session of its own,
 * so clients sharing a principal (the demo host's "demo") never share a failure count. Name a session
 * to get `escalate`.
 */
const sessionId = (req: IncomingMessage, fromBody: unknown): string => {
  const header = req.headers["x-quiver-session"];
  if (typeof fromBody === "string") return fromBody;
  return typeof header === "string" ? header : `one-shot-${randomUUID()}`;
};

/**
 * A per-call time limit: `timeoutMs` in the wrapper or the X-Quiver-Timeout-Ms header (the catalog
 * bounds it by the tool's own timeout and refuses a value that is not a positive number).
 */
const callTimeout = (req: IncomingMessage, fromBody: unknown): unknown => {
  if (fromBody !== undefined) return fromBody;
  const header = req.headers["x-quiver-timeout-ms"];
  return typeof header === "string" ? Number(header) : undefined;
};

/**
 * `POST /tools/:name/call`: runs the tool (or the profile's seed tool) for the caller and answers its
 * envelope (a seed tool: the seed's own value). Refuses another method (405), a tool the caller's
 * access token lacks the scopes for (403), an unknown tool (404) and a malformed session (400). A
 * client that disconnects cancels the call. With `Prefer: respond-async`, a task-capable tool runs as
 * a task: `202` and a `Location` to poll (its deadline `timeout_seconds`, default 300 s); any other
 * tool is answered when done, as RFC 7240 lets a server do. With `?result=mcp` the answer is the
 * envelope as MCP's `tools/call` result (`toCallToolResult`: content blocks, the envelope as
 * `structuredContent`), which the console's views are fed through the MCP Apps bridge.
 */
export const callToolRoute: ApiRoute["handle"] = async (
  { req, res, url, parts, method, caller },
  { catalog, options, maxBodyBytes },
) => {
  if (method !== "POST")
    return sendError(res, 405, "method_not_allowed", "Use POST to call a tool.", {
      headers: { allow: "POST" },
    });
  const name = parts[1]!;
  const asTask = options.tasks !== undefined && req.headers.prefer !== undefined && prefersAsync(req);
  const info = options.auth || asTask ? catalog.list().find((t) => t.name === name) : undefined;
  // Only OAuth callers can lack scopes: static-token callers may call every tool.
  if (options.auth) {
    const missing = info ? caller.missingScopes(info) : [];
    if (missing.length > 0) {
      const refusal = options.auth.insufficientScope(missing);
      return sendError(res, refusal.status, refusal.code, refusal.message, refusal);
    }
  }
  const seed = options.profile?.find(name);
  const request = readCallRequest(req, await readJsonBody(req, maxBodyBytes), caller);
  if (!request.ok) return sendError(res, 400, request.code, request.message);
  if (asTask && !seed && info?.task === "optional") {
    const { session, timeoutMs, trace } = request.settings;
    const task = await options.tasks!.start(name, request.input, {
      session,
      ...(request.deadlineMs !== undefined ? { deadlineMs: request.deadlineMs } : {}),
      call: { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(trace ? { trace } : {}) },
    });
    return sendAccepted(res, task);
  }
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) controller.abort(new Error("The client disconnected."));
  };
  res.once("close", onClose);
  // Answered when done, `timeout_seconds` is the call's own limit (when `timeoutMs` is not given).
  const limit = request.settings.timeoutMs ?? request.deadlineMs;
  const settings = {
    ...request.settings,
    ...(limit !== undefined ? { timeoutMs: limit } : {}),
    signal: controller.signal,
  };
  if (seed) {
    // A seed tool answers the seed's own value as the body (a dict, a str, a list), never an envelope.
    const value = await options.profile!.call(seed, request.input, settings);
    res.off("close", onClose);
    if (!res.destroyed) sendJson(res, 200, value, { "x-quiver-profile": options.profile!.profile.name });
    return;
  }
  const result = await catalog.call(name, request.input, settings);
  res.off("close", onClose);
  if (res.destroyed) return;
  // The call looked the tool up; an error from a name no tool has is the route's 404.
  if (result.status === "error" && !catalog.has(name))
    return sendError(
      res,
      404,
      "unknown_tool",
      result.message,
      result.suggestion ? { fix: result.suggestion } : {},
    );
  // `?result=mcp`: the envelope as MCP's tools/call answers it (what an MCP Apps view is fed).
  const body = url.searchParams.get("result") === "mcp" ? toCallToolResult(result) : result;
  sendJson(res, 200, body, { "x-quiver-status": result.status });
};
