import { useState } from "preact/hooks";
import { api, type ConsolePlugin, type ConsoleTool, type HealthReport } from "./api";

/** True when every word of the query is in the tool's name, title, plugin or description. */
export const matches = (tool: ConsoleTool, query: string): boolean => {
  const hay = `${tool.name} ${tool.title ?? ""} ${tool.plugin} ${tool.description}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
};

const STATE_LABEL = { ready: "ready", unconfigured: "unconfigured", failing: "failing" } as const;

/** Moves focus between the tool buttons with the arrow keys (Home/End to the ends). */
const onToolKey = (e: KeyboardEvent) => {
  const keys = ["ArrowDown", "ArrowUp", "Home", "End"];
  if (!keys.includes(e.key)) return;
  const all = [...document.querySelectorAll<HTMLButtonElement>("button[data-tool]")];
  const at = all.indexOf(e.target as HTMLButtonElement);
  const next =
    e.key === "Home"
      ? 0
      : e.key === "End"
        ? all.length - 1
        : Math.min(all.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)));
  all[next]?.focus();
  e.preventDefault();
};

/**
 * The catalog grouped by plugin, each with its state (ready; unconfigured and what to set;
 * failing and why), filtered by the search box. Enter in the box opens the first match; the arrow
 * keys move between tools.
 */
export const CatalogNav = (props: {
  plugins: ReadonlyArray<ConsolePlugin>;
  query: string;
  selected: string | undefined;
  onQuery: (q: string) => void;
  onSelect: (tool: string) => void;
}) => {
  const groups = props.plugins
    .map((p) => ({ plugin: p, tools: p.tools.filter((t) => matches(t, props.query)) }))
    .filter((g) => g.tools.length > 0 || !props.query || g.plugin.id.includes(props.query.toLowerCase()));
  const first = groups.flatMap((g) => g.tools)[0];
  const count = groups.reduce((n, g) => n + g.tools.length, 0);
  return (
    <nav aria-label="Tools" class="catalog">
      <label for="tool-search">Find a tool</label>
      <input
        id="tool-search"
        type="search"
        autocomplete="off"
        placeholder="name, plugin or words"
        aria-describedby="tool-search-count"
        value={props.query}
        onInput={(e) => props.onQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && first) props.onSelect(first.name);
          if (e.key === "ArrowDown") {
            document.querySelector<HTMLButtonElement>("button[data-tool]")?.focus();
            e.preventDefault();
          }
        }}
      />
      <p id="tool-search-count" class="muted" aria-live="polite">
        {count} tool{count === 1 ? "" : "s"}
        {props.query ? ` match “${props.query}”` : ""}
      </p>
      {groups.map(({ plugin, tools }) => (
        <PluginGroup
          key={plugin.id}
          plugin={plugin}
          tools={tools}
          selected={props.selected}
          onSelect={props.onSelect}
        />
      ))}
    </nav>
  );
};

/**
 * One plugin: its state (a ready plugin whose health check fails turns "failing", with why and the
 * fix), a button running its health check, and its tools.
 */
const PluginGroup = (props: {
  plugin: ConsolePlugin;
  tools: ReadonlyArray<ConsoleTool>;
  selected: string | undefined;
  onSelect: (tool: string) => void;
}) => {
  const { plugin: loaded, tools } = props;
  const [health, setHealth] = useState<HealthReport | undefined>();
  const [checking, setChecking] = useState(false);
  const plugin: ConsolePlugin =
    loaded.state === "ready" && health && !health.ok
      ? { ...loaded, state: "failing", message: health.message, ...(health.fix ? { fix: health.fix } : {}) }
      : loaded;
  const check = () => {
    setChecking(true);
    api<HealthReport>(`/console/api/health/${encodeURIComponent(loaded.id)}`)
      .then(setHealth, (e: Error) => setHealth({ ok: false, message: e.message }))
      .finally(() => setChecking(false));
  };
  return (
    <section class={`plugin plugin-${plugin.state}`} aria-label={`plugin ${plugin.id}`}>
      <h2>
        {plugin.id} <span class={`badge badge-${plugin.state}`}>{STATE_LABEL[plugin.state]}</span>
      </h2>
      {loaded.state === "ready" && (
        <p class="health">
          <button
            type="button"
            class="small"
            onClick={check}
            disabled={checking}
            aria-label={`check health of ${plugin.id}`}
          >
            {checking ? "checking…" : "check health"}
          </button>
          {health?.ok && (
            <span class="muted" data-health={plugin.id}>
              {" "}
              {health.message}
              {health.latencyMs !== undefined ? ` (${health.latencyMs} ms)` : ""}
            </span>
          )}
        </p>
      )}
      {plugin.state === "unconfigured" && (
        <p class="why" data-why={plugin.id}>
          {plugin.message ?? "A setting is missing."}
          {plugin.missing.length > 0 && (
            <>
              {" "}
              Set {plugin.missing.map((m, i) => [i > 0 ? ", " : "", <code key={m}>{m}</code>])} and restart.
            </>
          )}
        </p>
      )}
      {plugin.state === "failing" && (
        <p class="why" data-why={plugin.id}>
          {plugin.message}
          {plugin.fix && <span class="fix"> Fix: {plugin.fix}</span>}
        </p>
      )}
      {tools.length > 0 && (
        <ul>
          {tools.map((t) => (
            <li key={t.name}>
              <button
                type="button"
                data-tool={t.name}
                aria-current={props.selected === t.name ? "true" : undefined}
                onClick={() => props.onSelect(t.name)}
                onKeyDown={onToolKey}
              >
                {t.name}
                {t.aliasOf && <span class="sr-note"> (alias of {t.aliasOf})</span>}
                {!t.available && <span class="sr-note"> (unavailable)</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
