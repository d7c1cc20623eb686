// V8's precise coverage around one warm tool call over `quiver serve`'s HTTP API: the functions that
// ran during the call, by script URL and character range.
import { connectCdp } from "./cdp-client.mjs";

/** `POST /tools/<tool>/call` and the envelope it answers; throws unless it is a success. */
export const callTool = async (base, tool, input) => {
  const res = await fetch(`${base}/tools/${tool}/call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  const envelope = await res.json();
  if (res.status !== 200 || envelope.status !== "success") {
    throw new Error(`${tool} answered ${res.status} ${JSON.stringify(envelope).slice(0, 500)}`);
  }
  return envelope;
};

/** The functions of a `takePreciseCoverage` result that ran (count > 0), as `{ url, start, end }`. */
const ranFunctions = (result) =>
  result.flatMap((script) =>
    script.functions
      .filter((fn) => fn.ranges[0].count > 0)
      .map((fn) => ({
        url: script.url,
        name: fn.functionName,
        start: fn.ranges[0].startOffset,
        end: fn.ranges[0].endOffset,
      })),
  );

/**
 * Makes `warmups` calls (loading the catalog's runtime and every lazy import), then starts precise
 * coverage with call counts, takes a baseline (which resets the counters), makes the measured call and
 * takes coverage again: every function with a count then ran during the measured call. Each call has
 * its own input (`inputs(i)`), so the measured one misses the result cache; `upstreamRequests()`
 * (how many requests the upstream has had) proves it: the measured call must reach the upstream.
 *
 * @example
 * const { functions } = await coverCall({ inspector, base, tool: "fda_search_drugs", inputs });
 */
export const coverCall = async ({ inspector, base, tool, inputs, upstreamRequests, warmups = 1 }) => {
  const cdp = await connectCdp(inspector);
  try {
    await cdp.send("Profiler.enable");
    for (let i = 0; i < warmups; i++) await callTool(base, tool, inputs(i));
    await cdp.send("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
    // Precise coverage counts since the last take: this baseline drops everything before the call.
    await cdp.send("Profiler.takePreciseCoverage");
    const before = upstreamRequests();
    const envelope = await callTool(base, tool, inputs(warmups));
    const { result } = await cdp.send("Profiler.takePreciseCoverage");
    if (upstreamRequests() === before)
      throw new Error(`the measured ${tool} call did not reach the upstream`);
    await cdp.send("Profiler.stopPreciseCoverage");
    return { envelope, functions: ranFunctions(result) };
  } finally {
    cdp.close();
  }
};
