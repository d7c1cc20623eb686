import type { RecentCall } from "./api";

const time = (at: number) => new Date(at).toLocaleTimeString();

/** How many of the host's recent calls the table shows. */
const SHOWN = 15;

/** The last calls the host answered (any client), newest first: status, duration, attempts, cache. */
export const RecentCalls = (props: { calls: ReadonlyArray<RecentCall>; onPick: (tool: string) => void }) => (
  <section aria-labelledby="recent-title" class="panel">
    <h2 id="recent-title">Recent calls</h2>
    {props.calls.length === 0 ? (
      <p class="muted">No calls yet.</p>
    ) : (
      <div class="table-wrap">
        <table class="recent">
          <thead>
            <tr>
              <th scope="col">time</th>
              <th scope="col">tool</th>
              <th scope="col">principal</th>
              <th scope="col">status</th>
              <th scope="col">duration</th>
              <th scope="col">attempts</th>
              <th scope="col">cache</th>
            </tr>
          </thead>
          <tbody>
            {props.calls.slice(0, SHOWN).map((c, i) => (
              <tr key={`${c.at}-${i}`}>
                <td>{time(c.at)}</td>
                <td>
                  <button type="button" class="link" onClick={() => props.onPick(c.tool)}>
                    {c.tool}
                  </button>
                </td>
                <td>{c.principal ?? "–"}</td>
                <td>
                  <span class={`status status-${c.status}`}>{c.status}</span>
                  {c.kind ? ` (${c.kind})` : ""}
                </td>
                <td>{Math.round(c.durationMs * 10) / 10} ms</td>
                <td>{c.attempts}</td>
                <td>{c.cached ? "hit" : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
);
