// Preloaded into each server under load (`node --import <this file> …`), the same way for `quiver
// serve` and the bare server: every QUIVER_LOAD_PROBE_MS it appends one JSON line to the file named by
// QUIVER_LOAD_PROBE with the event-loop delay over that window (perf_hooks.monitorEventLoopDelay,
// 10 ms resolution: p50/p99/max in ms) and the V8 heap in use: after the latest full (mark-compact)
// collection, which is live memory rather than garbage not yet collected, and the number of full
// collections so far (PerformanceObserver "gc" entries); its floor over the window (read every 100 ms)
// and its last reading; the heap V8 holds from the system (heapTotal) and memory outside it (external). The timers are unref'd: they never keep the server alive, and nothing here
// changes what the server does.
import { appendFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const file = process.env.QUIVER_LOAD_PROBE;
if (file) {
  const every = Number(process.env.QUIVER_LOAD_PROBE_MS ?? 1000);
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let floor = Number.POSITIVE_INFINITY;
  const read = () => {
    const used = getHeapStatistics().used_heap_size;
    if (used < floor) floor = used;
    return used;
  };
  setInterval(read, 100).unref();
  let heapAfterGc;
  let fullGcs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        fullGcs++;
        heapAfterGc = getHeapStatistics().used_heap_size;
      }
  }).observe({ entryTypes: ["gc"] });
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  // QUIVER_LOAD_PROBE_GC=1 (`--gc`): a full collection at every window's end, so the live heap is
  // exact each time (at the cost of one pause per window, the same in every server).
  let gc;
  if (process.env.QUIVER_LOAD_PROBE_GC === "1") {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc");
  }
  setInterval(() => {
    if (gc) {
      gc();
      fullGcs++;
      heapAfterGc = getHeapStatistics().used_heap_size;
    }
    const heapUsed = read();
    const { heapTotal, external } = process.memoryUsage();
    const line = {
      t: Date.now(),
      p50: ms(h.percentile(50)),
      p99: ms(h.percentile(99)),
      max: ms(h.max),
      heapUsed,
      heapFloor: floor,
      heapAfterGc,
      fullGcs,
      heapTotal,
      external,
    };
    h.reset();
    floor = Number.POSITIVE_INFINITY;
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // The bench removed its folder: it is shutting the server down.
    }
  }, every).unref();
}
