import type { TaskRunner } from "@quiver/tasks";
import type { ApiAuth } from "../auth/api-caller.js";
import type { ToolIndex } from "../find/rank-tools.js";
import type { HostProfile } from "../profiles/host-profile.js";
import type { ConsoleSource } from "./console-data.js";
import type { ExtraGauge } from "./prometheus.js";

/** Options of the JSON API. */
export interface HttpApiOptions {
  /** Bearer token → principal; when empty, every request is `principal`. */
  readonly tokens?: Readonly<Record<string, string>>;
  /** OAuth 2.1 access tokens (with static tokens beside them), in place of `tokens` alone. */
  readonly auth?: ApiAuth | undefined;
  /** The principal of requests when no tokens are configured. */
  readonly principal?: string | undefined;
  readonly allowedOrigins?: ReadonlyArray<string> | "*";
  readonly allowedHosts?: ReadonlyArray<string> | "*";
  /** Largest POST body in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Reported by GET /health. */
  readonly version?: string;
  /** Extra facts for GET /health (skipped plugins ...). */
  readonly health?: () => Record<string, unknown>;
  /** Extra gauges for GET /metrics. */
  readonly gauges?: () => ReadonlyArray<ExtraGauge>;
  /** Ranks tools for GET /find (default: none, 404). */
  readonly finder?: ToolIndex;
  /** True while the host drains: requests get 503. */
  readonly draining?: () => boolean;
  /**
   * The web console at `/` (for browsers) and /console/: on by default; `false` turns it off. Give
   * the host's skipped plugins and recent calls to show them.
   */
  readonly console?: ConsoleSource | false;
  /** A seed system's profile: its tools answer the seed's own shapes (`quiver serve --profile`). */
  readonly profile?: HostProfile | undefined;
  /**
   * Runs calls sent with `Prefer: respond-async` as tasks (`202` and a `Location` under /tasks/);
   * without it, such calls are answered when they are done, as any other.
   */
  readonly tasks?: TaskRunner | undefined;
}
