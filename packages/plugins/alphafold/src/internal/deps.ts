import { createHttpClient, type HttpClient } from "@quiver/core";

/** What the tools of one plugin instance share: the ESMFold client, whose waits exceed the shared client's. */
export interface AlphafoldDeps {
  /** A client whose headers/body timeouts allow a long ESMFold fold (the shared client gives up after 30 s). */
  esmfoldHttp(timeoutMs: number): HttpClient;
  close(): Promise<void>;
}

/** Creates the shared state of one plugin instance. */
export const createDeps = (): AlphafoldDeps => {
  const clients = new Map<number, HttpClient>();
  return {
    esmfoldHttp(timeoutMs) {
      let client = clients.get(timeoutMs);
      if (!client) {
        client = createHttpClient({
          headersTimeoutMs: timeoutMs,
          bodyTimeoutMs: timeoutMs,
          service: "ESMFold",
        });
        clients.set(timeoutMs, client);
      }
      return client;
    },
    async close() {
      await Promise.all([...clients.values()].map((c) => c.close()));
      clients.clear();
    },
  };
};
