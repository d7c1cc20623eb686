import type { Host } from "../host/create-host.js";

/**
 * Calls `onSignal` at the first SIGTERM or SIGINT and `onSecond` at the next one; returns the unsubscribe.
 */
export const waitForSignal = (onSignal: (name: string) => void, onSecond: () => void) => {
  let count = 0;
  const handler = (name: NodeJS.Signals) => {
    count++;
    if (count === 1) onSignal(name);
    else onSecond();
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
  return () => {
    process.off("SIGTERM", handler);
    process.off("SIGINT", handler);
  };
};

/** SIGHUP: discover again (plugins installed or removed since start); returns the unsubscribe. */
export const reloadOnHangup = (host: Host, log: (l: string) => void) => {
  const handler = () => {
    void host.reload().then(
      (r) => {
        log(
          `SIGHUP: plugins rediscovered${r.added.length ? `; added ${r.added.join(", ")}` : ""}${r.removed.length ? `; removed ${r.removed.join(", ")}` : ""}${!r.added.length && !r.removed.length ? "; no change" : ""}`,
        );
        for (const p of r.problems) log(`skipped ${p.package}: ${p.message}\n  fix: ${p.fix}`);
      },
      (error: Error) => log(`SIGHUP: rediscovery failed: ${error.message}`),
    );
  };
  process.on("SIGHUP", handler);
  return () => process.off("SIGHUP", handler);
};
