import { existsSync } from "node:fs";
import { join } from "node:path";
import { HOST_DIR, type ServeProcess } from "./helpers.js";

/**
 * Why the replicas cannot serve the private repository from the built plugin, or undefined. The
 * plugin's dist is one bundled module, so its entry point is what is looked for.
 */
export const privateRepoUnbuilt = (): string | undefined =>
  existsSync(join(HOST_DIR, "node_modules/@quiver/plugin-private-repo/dist/index.js"))
    ? undefined
    : "@quiver/plugin-private-repo is not built";

/** What the replica tests read of a `private_repo_search` envelope. */
export interface RepoSearchAnswer {
  readonly status: string;
  readonly data?: { readonly total_count?: number };
  readonly error?: {
    readonly retryable: boolean;
    readonly message?: string;
    readonly suggestion?: string;
    readonly guidance?: unknown;
  };
}

/**
 * `private_repo_search` through one replica's HTTP API as the token's principal. The 15 s signal only
 * turns a hang into a failure: every call must answer.
 */
export const searchRepo = async (
  replica: ServeProcess,
  token: string,
  terms: string,
): Promise<RepoSearchAnswer> => {
  const response = await fetch(`${replica.url}/tools/private_repo_search/call`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ search_terms: terms }),
    signal: AbortSignal.timeout(15_000),
  });
  return (await response.json()) as RepoSearchAnswer;
};

/** Stops every replica (SIGTERM) and waits for each to exit. */
export const stopReplicas = async (replicas: ReadonlyArray<ServeProcess>): Promise<void> => {
  for (const r of replicas) {
    r.child.kill("SIGTERM");
    await r.exited;
  }
};
