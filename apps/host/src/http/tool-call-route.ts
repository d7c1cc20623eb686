import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Catalog, type SessionContext, type TraceContext, traceContextOf } from "@quiver/core";
import type { ApiCaller } from "../auth/api-caller.js";
import { parseSessionValues, SESSION_VALUES_HEADER } from "../profiles/host-profile.js";
import type { HttpApiOptions } from "./api-options.js";
import { sendError, sendJson } from "./json-response.js";
import { readJsonBody } from "./read-json-body.js";

const WRAPPER_KEYS = new Set(["input", "session", "timeoutMs"]);

/** The options a call is made with, but its signal. */
interface CallSettings {
  readonly session: SessionContext;
  readonly timeoutMs?: number;
  /** The caller's trace (its `traceparent` and `tracestate` headers). */
  readonly trace?: TraceContext;
}

/** A call's input and options, read from its body and headers; or the 400 to answer. */
type CallRequest =
  | { readonly ok: true; readonly input: unknown; readonly options: CallSettings }
  | { readonly ok: false; readonly message: string };

/**
 * Reads `POST /tools/:name/call`: the body is the input, or a wrapper `{ input, session?, timeoutMs? }`;
 * the session id and values and the time limit may also come as headers (the body's win).
 */
export const readCallRequest = (
  req: IncomingMessage,
  body: unknown,
  caller: Pick<ApiCaller, "principal"> & Partial<Pick<ApiCaller, "groups" | "clientId" | "scopes">>,
): CallRequest => {
  const { principal, groups, clientId, scopes } = caller;
  const isWrapper =
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    "input" in body &&
    Object.keys(body).every((k) => WRAPPER_KEYS.has(k));
  const wrapper = isWrapper
    ? (body as { input: unknown; session?: unknown; timeoutMs?: unknown })
    : undefined;
  const session = wrapper?.session ?? {};
  if (typeof session !== "object" || session === null || Array.isArray(session)) {
    return { ok: false, message: "session must be an object: { id?, values? }." };
  }
  const s = session as { id?: unknown; values?: unknown };
  const headerValues = parseSessionValues(req.headers[SESSION_VALUES_HEADER] as string | undefined);
  if (headerValues instanceof Error) return { ok: false, message: headerValues.message };
  const bodyValues =
    typeof s.values === "object" && s.values !== null ? (s.values as Record<string, unknown>) : undefined;
  const values = headerValues || bodyValues ? { ...headerValues, ...bodyValues } : undefined;
  const timeoutMs = callTimeout(req, wrapper?.timeoutMs);
  const trace = traceContextOf(req.headers);
  return {
    ok: true,
    input: wrapper ? wrapper.input : (body ?? {}),
    options: {
      session: {
        id: sessionId(req, s.id),
        ...(principal !== undefined ? { principal } : {}),
        ...(groups && groups.length > 0 ? { groups } : {}),
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
 * `POST /tools/:name/call`: runs the tool (or the profile's seed tool) for the principal and answers
 * its envelope (a seed tool: the seed's own value). A client that disconnects cancels the call.
 */
export const callToolRoute = async (
  catalog: Catalog,
  options: HttpApiOptions,
  limit: number,
  { req, res, name, caller }: { req: IncomingMessage; res: ServerResponse; name: string; caller: ApiCaller },
): Promise<void> => {
  const seed = options.profile?.find(name);
  if (!seed && !catalog.has(name)) {
    const r = await catalog.call(name, {});
    return sendError(res, 404, "unknown_tool", r.message, r.suggestion ? { fix: r.suggestion } : {});
  }
  const request = readCallRequest(req, await readJsonBody(req, limit), caller);
  if (!request.ok) return sendError(res, 400, "invalid_session", request.message);
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) controller.abort(new Error("The client disconnected."));
  };
  res.once("close", onClose);
  const call = { ...request.options, signal: controller.signal };
  if (seed) {
    // A seed tool answers the seed's own value as the body (a dict, a str, a list), never an envelope.
    const value = await options.profile!.call(seed, request.input, call);
    res.off("close", onClose);
    if (!res.destroyed) sendJson(res, 200, value, { "x-quiver-profile": options.profile!.profile.name });
    return;
  }
  const result = await catalog.call(name, request.input, call);
  res.off("close", onClose);
  if (!res.destroyed) sendJson(res, 200, result, { "x-quiver-status": result.status });
};
