import { readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { slug } from "@quiver/core";
import type { LoadError, loadDocuments, SearchDocument } from "@quiver/search";

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
/** A line break into indentation with tabs (the scraped page's layout), and runs of blanks. */
const INDENTED_BREAK = /[ \t]*\n[ \t]*\t[ \t]*/g;
const BLANKS = /[ \t]{2,}/g;
const clean = (s: string) => s.replace(INDENTED_BREAK, " ").replace(BLANKS, " ").trim();
const label = (key: string) => key.replace(/_/g, " ");

const flatten = (value: unknown, depth = 0): string => {
  if (typeof value === "string") return clean(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map((v) => `- ${flatten(v, depth + 1)}`).join("\n");
  if (!isObj(value)) return "";
  // A scalar after its label on the line, anything else below it.
  const entry = ([k, v]: [string, unknown]) =>
    `${label(k)}:${typeof v === "string" || typeof v === "number" ? " " : "\n"}${flatten(v, depth + 1)}`;
  const separator = depth === 0 ? "\n" : "; ";
  return Object.entries(value).map(entry).join(separator);
};

/** True for a UGR-style teaching guide: a JSON object whose `asignatura` is the guide's title and which has sections. */
const isGuide = (value: unknown): value is Record<string, unknown> =>
  isObj(value) &&
  typeof value.asignatura === "string" &&
  Object.keys(value).length >= 3 &&
  !("text" in value || "content" in value);

/**
 * A teaching guide as searchable documents: one per section (evaluación, bibliografía ...), titled
 * "<subject name>: <section>", tagged `asignatura` (the subject id) and `tipo_documento: guia_docente`.
 */
export const guideDocuments = (guide: Record<string, unknown>, subject: string, source: string) => {
  const title = clean(String(guide.asignatura));
  const name = title.replace(/^gu[ií]a\s+docente\s+de\s+/i, "").replace(/\s*\(.*$/, "") || subject;
  return Object.entries(guide).flatMap(([key, value]): SearchDocument[] => {
    const text = flatten(value);
    if (key === "asignatura" || key === "subject" || key === "_id" || text.trim() === "") return [];
    const doc = {
      id: `${subject}/guia_docente/${key}`,
      title: `${name}: ${label(key)}`,
      text: `${title}\n${label(key)}\n${text}`,
      metadata: { source, asignatura: subject, tipo_documento: "guia_docente", seccion: key },
    };
    return [doc];
  });
};

/** A file's JSON value. */
const readJson = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, "utf8"));

const GENERIC_GUIDE_NAMES = new Set(["guia_docente", "guia", "guide", "index"]);

/**
 * Subject and type of a document, as slugs (so `rag_search` filters match "Metaheurísticas" and
 * "metaheuristicas" alike): the record's own, else `defaults` (the command's options), else the path
 * `<asignatura>/<tipo_documento>/<file>`.
 */
export const tag = (
  doc: SearchDocument,
  defaults: Readonly<Record<"asignatura" | "tipo_documento", string | undefined>>,
): SearchDocument => {
  const m = doc.metadata ?? {};
  const folders = (typeof m.source === "string" ? m.source : "").split("/").slice(0, -1);
  /** The field's value as a slug: the record's own, else the default, else the folder at `level`. */
  const pick = (key: "asignatura" | "tipo_documento", level: number) => {
    const own = m[key];
    const v = typeof own === "string" && own.trim() !== "" ? own : (defaults[key] ?? folders[level]);
    return v ? { [key]: slug(v) } : {};
  };
  return { ...doc, metadata: { ...m, ...pick("asignatura", 0), ...pick("tipo_documento", 1) } };
};

/**
 * A folder's (or file's) documents: Markdown, plain text, JSON Lines, JSON, BibTeX (read by @quiver/search's
 * `loadDocuments`, passed in so that the package loads only when a folder is indexed) and UGR-style
 * teaching guides, one document per section; with what could not be read and what is unsupported.
 */
export const readFolder = async (folder: string, load: typeof loadDocuments) => {
  const root = resolve(folder);
  const loaded = await load(root);
  const errors: LoadError[] = [];
  const documents: SearchDocument[] = [...loaded.documents];
  const dir = (await stat(root)).isDirectory() ? root : dirname(root);
  // Teaching guides have no text field, so loadDocuments reports them: turn each into section documents.
  for (const error of loaded.errors) {
    const file = join(dir, error.path);
    const whole = extname(file).toLowerCase() === ".json" && error.line === undefined;
    // Unreadable or not a guide: reported as loadDocuments reported it.
    const value = whole ? await readJson(file).catch(() => undefined) : undefined;
    if (isGuide(value)) {
      const stem = slug(basename(file, extname(file)));
      const named = typeof value.subject === "string" ? value.subject : undefined;
      const subject = named ?? (GENERIC_GUIDE_NAMES.has(stem) ? basename(dirname(file)) : stem);
      documents.push(...guideDocuments(value, slug(subject), error.path));
    } else errors.push(error);
  }
  return { documents, errors, skipped: loaded.skipped };
};
