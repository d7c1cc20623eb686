import { App } from "@modelcontextprotocol/ext-apps";
import { labelSections, labelTitle } from "./label.js";
import { type DrugMatch, type DrugSearch, type SortKey, sortMatches, statusLine } from "./table.js";

// The drug table of `fda_search_drugs` as an MCP Apps view: the host sends the call's input and
// result through the official App bridge; the refinement form calls the tool again through the host.
const app = new App({ name: "quiver-fda-drugs", version: "1.0.0" }, {}, { autoResize: true });

const $ = <T extends Element>(selector: string) => document.querySelector<T>(selector)!;
const status = $<HTMLParagraphElement>("#status");
const unmet = $<HTMLUListElement>("#unmet");
const body = $<HTMLTableSectionElement>("#drugs tbody");
const refine = $<HTMLElement>("#refine");
const label = $<HTMLElement>("#label");

let criteria: Record<string, unknown> = {};
let maxResults: number | undefined;
let search: DrugSearch | undefined;
let sort: { key: SortKey; direction: "ascending" | "descending" } | undefined;
/** Each match's label resource (the envelope's `metadata.label_uris`, by match). */
let labels = new Map<DrugMatch, string>();

const cell = (row: HTMLTableRowElement, text: string) => {
  const td = row.insertCell();
  td.textContent = text;
  return td;
};

const link = (m: DrugMatch): HTMLElement => {
  const a = document.createElement("a");
  a.href = m.url;
  a.textContent = m.application_number ?? "record";
  // The frame has no network of its own: the host opens the link.
  a.addEventListener("click", (e) => {
    e.preventDefault();
    void app.openLink({ url: m.url }).catch(() => {});
  });
  return a;
};

/** Reads a label through the host (`resources/read`) and shows its sections below the table. */
const showLabel = async (uri: string) => {
  const title = label.querySelector("h2")!;
  const body = label.querySelector("div")!;
  label.hidden = false;
  title.textContent = "Reading the label…";
  body.replaceChildren();
  try {
    const { contents } = await app.readServerResource({ uri });
    const text = contents[0] && "text" in contents[0] ? contents[0].text : undefined;
    if (!text) throw new Error("the label is empty");
    const record = JSON.parse(text) as Record<string, unknown>;
    title.textContent = `Label: ${labelTitle(record)}`;
    for (const [name, paragraphs] of labelSections(record)) {
      body.append(Object.assign(document.createElement("h3"), { textContent: name }));
      for (const p of paragraphs) body.append(Object.assign(document.createElement("p"), { textContent: p }));
    }
  } catch (error) {
    title.textContent = `The label could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  title.focus();
};

/** The link to a match's label resource (read through the host on click), or a dash without one. */
const labelLink = (m: DrugMatch): Node => {
  const uri = labels.get(m);
  if (!uri) return document.createTextNode("—");
  const a = Object.assign(document.createElement("a"), { href: uri, textContent: "Label" });
  a.setAttribute("aria-label", `Label of ${m.brand_names[0] ?? m.generic_names[0] ?? "this drug"}`);
  a.addEventListener("click", (e) => {
    e.preventDefault();
    void showLabel(uri);
  });
  return a;
};

const render = () => {
  if (!search) return;
  status.textContent = statusLine(search);
  unmet.replaceChildren(
    ...search.unmet_constraints.map((c) => Object.assign(document.createElement("li"), { textContent: c })),
  );
  unmet.hidden = search.unmet_constraints.length === 0;
  const rows = sort ? sortMatches(search.matches, sort.key, sort.direction) : search.matches;
  body.replaceChildren();
  for (const m of rows) {
    const row = body.insertRow();
    cell(row, m.brand_names.join(", ") || m.generic_names[0] || "—");
    cell(row, m.generic_names.join(", "));
    cell(row, m.sponsor ?? "—");
    cell(row, m.original_approval_date ?? "—");
    cell(row, m.routes.join(", "));
    row.insertCell().append(link(m));
    row.insertCell().append(labelLink(m));
  }
  for (const th of document.querySelectorAll<HTMLTableCellElement>("th[data-key]")) {
    if (sort && th.dataset.key === sort.key) th.setAttribute("aria-sort", sort.direction);
    else th.removeAttribute("aria-sort");
  }
};

/** Shows a call's result: its envelope's data, or its message when it failed. */
const show = (result: { readonly structuredContent?: unknown }) => {
  const envelope = result.structuredContent as
    | { status?: string; message?: string; data?: DrugSearch; metadata?: { label_uris?: unknown } }
    | undefined;
  if (envelope?.data && Array.isArray(envelope.data.matches)) {
    search = envelope.data;
    const uris = Array.isArray(envelope.metadata?.label_uris) ? envelope.metadata.label_uris : [];
    labels = new Map(
      search.matches.flatMap((m, i) => (typeof uris[i] === "string" ? [[m, uris[i] as string]] : [])),
    );
    render();
  } else {
    status.textContent = envelope?.message ?? "The search answered no table.";
  }
};

for (const th of document.querySelectorAll<HTMLTableCellElement>("th[data-key]")) {
  th.querySelector("button")!.addEventListener("click", () => {
    const key = th.dataset.key as SortKey;
    sort = {
      key,
      direction: sort?.key === key && sort.direction === "ascending" ? "descending" : "ascending",
    };
    render();
  });
}

const searchAgain = async () => {
  const text = (name: string) =>
    refine.querySelector<HTMLInputElement>(`input[name="${name}"]`)!.value.trim();
  const year = (name: string) => (text(name) ? Number(text(name)) : undefined);
  const next: Record<string, unknown> = { ...criteria };
  if (text("sponsor")) next.sponsor = text("sponsor");
  if (text("route")) next.route = text("route");
  const range = { after: year("after"), before: year("before") };
  if (range.after !== undefined || range.before !== undefined)
    next.approval_year = Object.fromEntries(Object.entries(range).filter(([, v]) => v !== undefined));
  status.textContent = "Searching again…";
  try {
    const args = { search_criteria: next, ...(maxResults ? { max_results: maxResults } : {}) };
    const result = await app.callServerTool({ name: "fda_search_drugs", arguments: args });
    criteria = next;
    show(result);
    // What the model knows of the result follows the refinement (when the host takes context updates).
    if (search && app.getHostCapabilities()?.updateModelContext) {
      await app.updateModelContext({
        content: [
          {
            type: "text",
            text: `The user refined the FDA search to ${JSON.stringify(next)}: ${statusLine(search)}`,
          },
        ],
        structuredContent: { search_criteria: next, ...search },
      });
    }
  } catch (error) {
    status.textContent = `The search failed: ${error instanceof Error ? error.message : String(error)}`;
  }
};
$<HTMLButtonElement>("#search-again").addEventListener("click", () => void searchAgain());
refine.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && e.target instanceof HTMLInputElement) void searchAgain();
});

app.ontoolinput = ({ arguments: args }) => {
  criteria = { ...((args?.search_criteria as Record<string, unknown> | undefined) ?? {}) };
  maxResults = typeof args?.max_results === "number" ? args.max_results : undefined;
};
app.ontoolresult = (result) => show(result);
void app.connect();
