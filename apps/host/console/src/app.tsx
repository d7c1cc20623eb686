import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, api, type ConsoleState, type ConsoleStats, getToken, setToken } from "./api";
import { CatalogNav } from "./catalog-nav";
import { addSample, type Sample } from "./history";
import { RecentCalls } from "./recent-calls";
import { ResourceViewer } from "./resource-viewer";
import { RunningTasks } from "./running-tasks";
import { ToolCharts } from "./tool-charts";
import { ToolView } from "./tool-view";

/** How often the page polls the host's metrics (ms). */
const POLL_MS = 1000;

const toolFromHash = () => new URLSearchParams(location.hash.slice(1)).get("tool") ?? undefined;

/** Asks for a bearer token when the host has auth on (the same tokens as the API). */
const TokenForm = (props: { message: string; principal: string | null; onToken: (t: string) => void }) => {
  const [value, setValue] = useState("");
  return (
    <form
      class="token-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onToken(value.trim());
      }}
    >
      <label for="token">Bearer token</label>
      <input
        id="token"
        type="password"
        autocomplete="off"
        aria-describedby="token-hint"
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit">{props.principal ? "Switch principal" : "Sign in"}</button>
      <p id="token-hint" class="hint">
        {props.message}
      </p>
    </form>
  );
};

/** The console: catalog, the chosen tool (form, envelope, charts) and the recent calls. */
export const App = () => {
  const [state, setState] = useState<ConsoleState | undefined>();
  const [problem, setProblem] = useState<{ message: string; needsToken: boolean } | undefined>();
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<string | undefined>(toolFromHash());
  const [samples, setSamples] = useState<Map<string, Sample[]>>(new Map());
  const [stats, setStats] = useState<ConsoleStats | undefined>();
  const [pollError, setPollError] = useState<string | undefined>();

  const load = useCallback(() => {
    api<ConsoleState>("/console/api/state").then(
      (s) => {
        setState(s);
        setProblem(undefined);
      },
      (e: Error) =>
        setProblem({
          message:
            e instanceof ApiError && e.status === 401
              ? `${e.message} This host needs a bearer token.`
              : e.message,
          needsToken: e instanceof ApiError && e.status === 401,
        }),
    );
  }, []);
  useEffect(load, [load]);

  const poll = useCallback(() => {
    api<ConsoleStats>("/console/api/stats").then(
      (s) => {
        setStats(s);
        setSamples((h) => addSample(h, s));
        setPollError(undefined);
      },
      (e: Error) => setPollError(e.message),
    );
  }, []);
  useEffect(() => {
    if (!state) return;
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => clearInterval(timer);
  }, [state, poll]);

  useEffect(() => {
    const onHash = () => setSelected(toolFromHash());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  const select = (tool: string) => {
    setSelected(tool);
    history.replaceState(null, "", `#tool=${encodeURIComponent(tool)}`);
    requestAnimationFrame(() => document.getElementById("tool-title")?.focus());
  };
  const onToken = (t: string) => {
    setToken(t);
    setState(undefined);
    load();
  };

  // An alias is charted with the figures of the tool it stands for.
  const measured =
    state?.plugins.flatMap((p) => p.tools).find((t) => t.name === selected)?.aliasOf ?? selected ?? "";

  return (
    <>
      <a class="skip" href="#main">
        Skip to the tool
      </a>
      <header class="top">
        <h1>Quiver console</h1>
        {state?.version && <span class="muted">host {state.version}</span>}
        {state && (
          <span class={pollError ? "live live-off" : "live"} role="status">
            {pollError ? `metrics paused: ${pollError} (retrying)` : "metrics live"}
          </span>
        )}
        <span class="who" data-principal>
          {state ? (state.principal ? `calling as ${state.principal}` : "no principal") : ""}
        </span>
        {state?.auth && (
          <TokenForm
            message="Calls run as the principal of the token you give."
            principal={state.principal}
            onToken={onToken}
          />
        )}
        {state?.auth && getToken() && (
          <button type="button" onClick={() => onToken("")}>
            Sign out
          </button>
        )}
      </header>
      {problem && (
        <div class="panel" role="alert">
          <p>{problem.message}</p>
          {problem.needsToken && (
            <TokenForm
              message="Give a token from the host's config (tokens)."
              principal={null}
              onToken={onToken}
            />
          )}
        </div>
      )}
      {state && (
        <div class="layout">
          <CatalogNav
            plugins={state.plugins}
            query={query}
            selected={selected}
            onQuery={setQuery}
            onSelect={select}
          />
          <main id="main" tabIndex={-1}>
            {selected ? (
              <>
                <ToolView name={selected} principal={state.principal} onCalled={poll} />
                <section aria-labelledby="charts-title" class="panel">
                  <h2 id="charts-title">Live metrics of {measured}</h2>
                  <ToolCharts tool={measured} samples={samples.get(measured) ?? []} />
                </section>
              </>
            ) : (
              <p class="intro">
                Pick a tool on the left (or type to find one, Enter opens the first match) to read its
                schemas, call it and watch its metrics.
              </p>
            )}
            <section aria-labelledby="resources-title" class="panel">
              <h2 id="resources-title">Resources</h2>
              <ResourceViewer principal={state.principal} />
            </section>
            <RunningTasks principal={state.principal} />
            <RecentCalls calls={stats?.recent ?? []} onPick={select} />
          </main>
        </div>
      )}
    </>
  );
};
