import type { StoreStatus } from "@quiver/core";
import type { ExtraGauge } from "../http/prometheus.js";

/**
 * The store's state as `/metrics` gauges: `quiver_store_fallback` is 1 while the store's backend
 * (Redis) is unreachable and this replica keeps its state in its own memory, and
 * `quiver_store_outages` counts the outages since the host started; both labelled with the driver.
 *
 * @example
 * storeGauges({ driver: "redis", state: "fallback", outages: 1 })
 * // quiver_store_fallback{driver="redis"} 1, quiver_store_outages{driver="redis"} 1
 */
export const storeGauges = (status: StoreStatus): ReadonlyArray<ExtraGauge> => {
  const labels = { driver: status.driver };
  return [
    {
      name: "quiver_store_fallback",
      help: "1 while the store's backend is unreachable and this replica keeps its state in memory",
      samples: [{ labels, value: status.state === "fallback" ? 1 : 0 }],
    },
    {
      name: "quiver_store_outages",
      help: "Times the store's backend became unreachable since the host started",
      samples: [{ labels, value: status.outages }],
    },
  ];
};
