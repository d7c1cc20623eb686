/** The console's view of the host's JSON API (same origin, same bearer tokens). */

// The answers' types are the host's own (type-only, erased from the bundle): changing an answer there
// breaks this app's typecheck.
export type {
  ApiErrorBody,
  ConsolePlugin,
  ConsoleState,
  ConsoleStats,
  ConsoleTool,
  Envelope,
  ErrorKind,
  HealthReport,
  RecentCall,
  TaskList,
  TaskView,
  ToolDescription,
  ToolStats,
} from "../../src/http/api-types.js";
export type {
  ResourceContents,
  ResourceInfo,
  ResourceList,
  ResourceRead,
  ResourceTemplateInfo,
} from "../../src/http/console-resource-types.js";

import type { ApiErrorBody } from "../../src/http/api-types.js";

const TOKEN_KEY = "quiver-console-token";

/** The bearer token the page sends (kept for this tab only). */
export const getToken = (): string => sessionStorage.getItem(TOKEN_KEY) ?? "";

/** Remembers (or forgets, with "") the bearer token for this tab. */
export const setToken = (token: string): void => {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
};

/** An API answer other than 2xx, with the API's `{ error: { code, message, fix? } }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fix?: string,
  ) {
    super(message);
  }
}

/** Calls the API with the tab's token; rejects with ApiError on a non-2xx answer. */
export const api = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
  const token = getToken();
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: {
      accept: "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const body = (await res.json().catch(() => undefined)) as Partial<ApiErrorBody> | undefined;
  if (!res.ok) {
    const e = body?.error;
    throw new ApiError(res.status, e?.code ?? "http_error", e?.message ?? `HTTP ${res.status}`, e?.fix);
  }
  return body as T;
};
