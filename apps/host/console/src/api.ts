/** The console's view of the host's JSON API (same origin, same bearer tokens). */

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
  const body = (await res.json().catch(() => undefined)) as
    | { error?: { code: string; message: string; fix?: string } }
    | undefined;
  if (!res.ok) {
    const e = body?.error;
    throw new ApiError(res.status, e?.code ?? "http_error", e?.message ?? `HTTP ${res.status}`, e?.fix);
  }
  return body as T;
};

/** A tool as listed. */
export interface ToolInfo {
  name: string;
  plugin: string;
  title?: string;
  description: string;
  category: string;
  available: boolean;
  /** Set on an alias: the tool it stands for (whose figures it shares). */
  aliasOf?: string;
}

/** A plugin and its state. */
export interface PluginView {
  id: string;
  version?: string;
  description?: string;
  state: "ready" | "unconfigured" | "failing";
  message?: string;
  missing: string[];
  fix?: string;
  tools: ToolInfo[];
}

/** GET /console/api/state */
export interface ConsoleState {
  principal: string | null;
  auth: boolean;
  version?: string;
  plugins: PluginView[];
}

/** A JSON Schema (the parts the form reads). */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  [key: string]: unknown;
}

/** GET /tools/:name */
export interface ToolDescription extends ToolInfo {
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  examples: { input: unknown; description?: string }[];
  policy: unknown;
  annotations: Record<string, unknown>;
}

/** One tool's figures in GET /console/api/stats. */
export interface ToolStats {
  tool: string;
  plugin: string;
  calls: number;
  successes: number;
  failures: number;
  failuresByKind: Record<string, number>;
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
  cacheHitRate?: number;
  breaker?: "Closed" | "Open" | "HalfOpen";
}

/** One finished call. */
export interface RecentCall {
  tool: string;
  principal?: string;
  status: string;
  kind?: string;
  durationMs: number;
  attempts: number;
  cached: boolean;
  at: number;
}

/** GET /console/api/stats */
export interface Stats {
  at: number;
  tools: ToolStats[];
  recent: RecentCall[];
}

/** GET /console/api/health/:plugin: the plugin's own health check. */
export interface HealthReport {
  ok: boolean;
  message: string;
  fix?: string;
  latencyMs?: number;
}

/** The envelope every call answers. */
export interface Envelope {
  status: string;
  message: string;
  data?: unknown;
  error?: { kind: string; message: string; retryable: boolean };
  suggestion?: string;
  guidance?: string;
  metadata: { durationMs: number; attempts: number; cached: boolean; [k: string]: unknown };
}
