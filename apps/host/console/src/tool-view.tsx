import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError, api, type Envelope, type ToolDescription } from "./api";
import { type Field, fieldsOf, inputOf, valuesOf } from "./schema-form";
import type { ViewCall } from "./view-bridge";
import { ViewFrame } from "./view-frame";

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** One field of the generated form, labelled, with its description as a hint. */
const FieldInput = (props: { field: Field; value: string; onChange: (v: string) => void }) => {
  const { field: f } = props;
  const id = `field-${f.name}`;
  const hint = f.description || f.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name: f.name,
    "aria-describedby": hint,
    required: f.required,
  };
  return (
    <div class={`field field-${f.kind}`}>
      <label for={id}>
        {f.name}
        {f.required ? <span aria-hidden="true"> *</span> : <span class="muted"> (optional)</span>}
      </label>
      {f.kind === "enum" ? (
        <select {...common} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
          <option value="">{f.required ? "choose…" : "(none)"}</option>
          {f.options?.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : f.kind === "boolean" ? (
        <select {...common} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
          <option value="">(unset)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : f.kind === "json" ? (
        <textarea
          {...common}
          rows={3}
          spellcheck={false}
          value={props.value}
          onInput={(e) => props.onChange(e.currentTarget.value)}
        />
      ) : f.kind === "text" ? (
        <input
          {...common}
          type="text"
          value={props.value}
          onInput={(e) => props.onChange(e.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          type="number"
          step={f.kind === "integer" ? 1 : "any"}
          value={props.value}
          onInput={(e) => props.onChange(e.currentTarget.value)}
        />
      )}
      {hint && (
        <p id={hint} class="hint">
          {[f.description, f.hint ? `(${f.hint})` : ""].filter(Boolean).join(" ")}
        </p>
      )}
    </div>
  );
};

/** A tool described in full, with a form generated from its input schema to call it. */
export const ToolView = (props: { name: string; principal: string | null; onCalled: () => void }) => {
  const [tool, setTool] = useState<ToolDescription | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Envelope | undefined>();
  const [viewCall, setViewCall] = useState<ViewCall | undefined>();
  const [calling, setCalling] = useState(false);
  const [formError, setFormError] = useState<string | undefined>();
  const fields = useMemo(() => (tool ? fieldsOf(tool.inputSchema) : []), [tool]);

  useEffect(() => {
    let live = true;
    setTool(undefined);
    setResult(undefined);
    setViewCall(undefined);
    setError(undefined);
    setFormError(undefined);
    api<ToolDescription>(`/tools/${encodeURIComponent(props.name)}`).then(
      (d) => {
        if (!live) return;
        setTool(d);
        setValues(valuesOf(fieldsOf(d.inputSchema), d.examples[0]?.input ?? {}));
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [props.name]);

  const call = async (e: Event) => {
    e.preventDefault();
    setFormError(undefined);
    let input: Record<string, unknown>;
    try {
      input = inputOf(fields, values);
    } catch (err) {
      setFormError((err as Error).message);
      return;
    }
    setCalling(true);
    try {
      const path = `/tools/${encodeURIComponent(props.name)}/call`;
      setViewCall(undefined);
      if (tool?.viewUri) {
        // A tool with a view: its result as MCP answers it, for the view; the envelope inside, for the page.
        const mcp = await api<{ structuredContent: Envelope }>(`${path}?result=mcp`, {
          method: "POST",
          body: input,
        });
        setResult(mcp.structuredContent);
        setViewCall({ input, result: mcp });
      } else setResult(await api<Envelope>(path, { method: "POST", body: input }));
      props.onCalled();
    } catch (err) {
      setFormError(err instanceof ApiError ? `${err.message}${err.fix ? ` ${err.fix}` : ""}` : String(err));
    } finally {
      setCalling(false);
    }
  };

  if (error)
    return (
      <p role="alert">
        Could not describe {props.name}: {error}
      </p>
    );
  if (!tool) return <p class="muted">Loading {props.name}…</p>;
  return (
    <article class="tool" aria-labelledby="tool-title">
      <h2 id="tool-title" tabIndex={-1}>
        {tool.title ? `${tool.title} ` : ""}
        <code>{tool.name}</code>
      </h2>
      <p class="muted">
        plugin {tool.plugin} · {tool.category}
        {Object.entries(tool.annotations ?? {})
          .filter(([, v]) => v === true)
          .map(([k]) => ` · ${k}`)
          .join("")}
      </p>
      {!tool.available && (
        <p class="why">This tool's plugin is unconfigured: calls answer "unavailable" until it is set up.</p>
      )}
      <p class="description">{tool.description}</p>

      <details>
        <summary>Input schema</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre tabIndex={0}>{pretty(tool.inputSchema)}</pre>
      </details>
      <details>
        <summary>Output schema</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre tabIndex={0}>{pretty(tool.outputSchema)}</pre>
      </details>
      <details>
        <summary>Policy</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre tabIndex={0}>{pretty(tool.policy)}</pre>
      </details>

      {tool.examples.length > 0 && (
        <section aria-labelledby="examples-title">
          <h3 id="examples-title">Examples</h3>
          <ul class="examples">
            {tool.examples.map((ex, i) => (
              <li key={i}>
                <code>{JSON.stringify(ex.input)}</code>
                {ex.description && <span class="muted"> {ex.description}</span>}{" "}
                <button type="button" onClick={() => setValues(valuesOf(fields, ex.input))}>
                  Use example {i + 1}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <form class="call-form" onSubmit={call} aria-labelledby="call-title">
        <h3 id="call-title">Call {tool.name}</h3>
        {fields.length === 0 && <p class="muted">This tool takes no input.</p>}
        {fields.map((f) => (
          <FieldInput
            key={f.name}
            field={f}
            value={values[f.name] ?? ""}
            onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
          />
        ))}
        {formError && (
          <p role="alert" class="form-error">
            {formError}
          </p>
        )}
        <button type="submit" class="primary" disabled={calling}>
          {calling ? "Calling…" : `Call${props.principal ? ` as ${props.principal}` : ""}`}
        </button>
      </form>

      {viewCall && tool.viewUri && <ViewFrame uri={tool.viewUri} tool={tool.name} call={viewCall} />}
      {result && (
        <section aria-labelledby="envelope-title" class="envelope" aria-live="polite">
          <h3 id="envelope-title">
            Envelope <span class={`status status-${result.status}`}>{result.status}</span>
          </h3>
          <p>
            {result.message}{" "}
            <span class="muted">
              {Math.round(result.metadata.durationMs * 10) / 10} ms · {result.metadata.attempts} attempt
              {result.metadata.attempts === 1 ? "" : "s"} ·{" "}
              {result.metadata.cached ? "cache hit" : "not cached"}
            </span>
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable) */}
          <pre tabIndex={0} data-envelope>
            {pretty(result)}
          </pre>
        </section>
      )}
    </article>
  );
};
