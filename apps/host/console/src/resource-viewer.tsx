import { useEffect, useState } from "preact/hooks";
import { ApiError, api, type ResourceList, type ResourceRead, type ResourceTemplateInfo } from "./api";
import { ResourceContentsView, sizeText } from "./resource-contents";
import { expandTemplate, templateVariables } from "./uri-template";

/** A template with a field per variable; "Read" reads the URI the values make. */
const TemplateForm = (props: { template: ResourceTemplateInfo; onRead: (uri: string) => void }) => {
  const { template } = props;
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  return (
    <form
      class="template-form"
      aria-label={`template ${template.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        props.onRead(uri);
      }}
    >
      <p>
        <strong>{template.title ?? template.name}</strong> <code>{template.uriTemplate}</code>
        <span class="muted"> · plugin {template.plugin}</span>
      </p>
      {template.description && <p class="hint">{template.description}</p>}
      {variables.map((name) => {
        const id = `template-${template.name}-${name}`;
        return (
          <div class="field" key={name}>
            <label for={id}>{name}</label>
            <input
              id={id}
              type="text"
              required
              value={values[name] ?? ""}
              onInput={(e) => setValues((old) => ({ ...old, [name]: e.currentTarget.value }))}
            />
          </div>
        );
      })}
      <button type="submit">
        Read <code>{uri}</code>
      </button>
    </form>
  );
};

/**
 * The resource viewer beside the tool form: the resources and templates of `GET /resources` (the caller's
 * scopes decide which), and one read through `GET /resources?uri=…` under the caller's identity.
 */
export const ResourceViewer = (props: { principal: string | null }) => {
  const [list, setList] = useState<ResourceList | undefined>();
  const [listError, setListError] = useState<string | undefined>();
  const [read, setRead] = useState<ResourceRead | undefined>();
  const [readError, setReadError] = useState<string | undefined>();
  const [reading, setReading] = useState<string | undefined>();

  useEffect(() => {
    api<ResourceList>("/resources").then(setList, (e: Error) => setListError(e.message));
  }, [props.principal]);

  const open = async (uri: string) => {
    setReading(uri);
    setRead(undefined);
    setReadError(undefined);
    try {
      setRead(await api<ResourceRead>(`/resources?uri=${encodeURIComponent(uri)}`));
    } catch (e) {
      setReadError(e instanceof ApiError ? `${e.message}${e.fix ? ` ${e.fix}` : ""}` : String(e));
    } finally {
      setReading(undefined);
    }
  };

  if (listError) return <p role="alert">Could not list the resources: {listError}</p>;
  if (!list) return <p class="muted">Loading the resources…</p>;
  if (list.resources.length === 0 && list.resourceTemplates.length === 0)
    return <p class="muted">No plugin here serves resources.</p>;
  return (
    <div class="resources">
      {list.resources.length > 0 && (
        <ul class="resource-list" aria-label="Resources">
          {list.resources.map((r) => (
            <li key={r.uri}>
              <button type="button" data-resource={r.uri} onClick={() => open(r.uri)}>
                {r.title ?? r.name}
              </button>{" "}
              <code>{r.uri}</code>
              <span class="muted">
                {" "}
                · {r.plugin}
                {r.mimeType ? ` · ${r.mimeType}` : ""}
                {r.size !== undefined ? ` · ${sizeText(r.size)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
      {list.resourceTemplates.map((t) => (
        <TemplateForm key={t.uriTemplate} template={t} onRead={open} />
      ))}
      <section aria-labelledby="resource-read-title" aria-live="polite" class="resource-read">
        <h3 id="resource-read-title">
          {reading ? `Reading ${reading}…` : read ? `Read ${read.uri}` : "Pick a resource to read it"}
        </h3>
        {readError && (
          <p role="alert" class="form-error">
            {readError}
          </p>
        )}
        {read && <ResourceContentsView contents={read.contents} />}
      </section>
    </div>
  );
};
