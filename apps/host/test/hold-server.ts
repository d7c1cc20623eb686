import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eventually } from "./helpers.js";

/**
 * The tasky fixture's upstream: `GET /hold?label=x` answers only once the test releases `x`; a
 * request its client aborts first (a cancelled task) is recorded in `aborted`.
 */
export const startHoldServer = async () => {
  const held = new Map<string, (answer: string) => void>();
  const aborted = new Set<string>();
  const server = createServer((req, res) => {
    const label = new URL(req.url ?? "/", "http://x").searchParams.get("label") ?? "";
    res.once("close", () => {
      if (!res.writableEnded) aborted.add(label);
      held.delete(label);
    });
    held.set(label, (answer) => res.end(answer));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    held,
    aborted,
    /** Answers `label`'s request with `answer`, once it is held. */
    release: async (label: string, answer = `answer of ${label}`) => {
      await eventually(() => held.has(label));
      held.get(label)!(answer);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};
