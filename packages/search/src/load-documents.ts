import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { basename, extname, isAbsolute, join, relative, sep } from "node:path";
import { dateKey } from "./internal/dates.js";
import { withOptionalPeer } from "./internal/optional-peer.js";
import { latexToText, splitAuthors } from "./internal/parse/latex-text.js";
import type { MetadataValue, SearchDocument } from "./types.js";

/** A file (or a line of one) that could not be loaded. */
export interface LoadError {
  /** The file, as given or relative to the folder given. */
  readonly path: string;
  /** The line, for JSON Lines records and BibTeX entries. */
  readonly line?: number;
  readonly message: string;
}

/** The documents read and the problems met. */
export interface LoadedDocuments {
  readonly documents: SearchDocument[];
  readonly errors: LoadError[];
  /** Files left out because their extension is not a supported one. */
  readonly skipped: string[];
}

/** Options of {@link loadDocuments}. */
export interface LoadDocumentsOptions {
  /** Descend into sub-folders (hidden ones and `node_modules` excepted). Default true. */
  readonly recursive?: boolean;
  /** Called before each file is read (`done` files read of `total`), and once all are (`file` absent). */
  readonly onProgress?: (progress: {
    readonly done: number;
    readonly total: number;
    readonly file?: string;
  }) => void;
}

interface Loaded {
  documents: SearchDocument[];
  errors: Omit<LoadError, "path">[];
}

/** Reads one file's text; the parsers of Markdown and BibTeX are imported on their first file. */
type Loader = (text: string, file: string) => Loaded | Promise<Loaded>;

const LOADERS: Readonly<Record<string, Loader>> = {
  ".md": markdown,
  ".markdown": markdown,
  ".txt": plainText,
  ".jsonl": jsonLines,
  ".ndjson": jsonLines,
  ".json": json,
  ".bib": bibtex,
};

/**
 * Reads documents from a file or a folder: Markdown (title from the first heading, YAML front matter as fields),
 * plain text, JSON Lines or JSON (one document per line or an array; `id`/`_id`, `title`, `text`/`content`/
 * `body`/`abstract`, `authors`, `date`/`year`, `tags`/`keywords`, `doi`, other fields as metadata; BEIR corpora
 * load as they are) and BibTeX (title, authors, year as date, doi, abstract as text, keywords as tags). Every
 * document's `metadata.source` is the file it came from. A file or record that cannot be read is reported in
 * `errors` and the others are still returned.
 *
 * @example
 * const { documents, errors } = await loadDocuments("./course-notes");
 * for (const e of errors) console.warn(`${e.path}: ${e.message}`);
 * await index.add(documents, { collection: "bio101" });
 */
export async function loadDocuments(
  path: string,
  options: LoadDocumentsOptions = {},
): Promise<LoadedDocuments> {
  const result: LoadedDocuments = { documents: [], errors: [], skipped: [] };
  let root: Awaited<ReturnType<typeof stat>>;
  try {
    root = await stat(path);
  } catch (error) {
    result.errors.push({ path, message: describe(error) });
    return result;
  }
  const files: { file: string; name: string }[] = [];
  if (root.isDirectory()) {
    await walk(path, options.recursive ?? true, files, result.errors, path);
  } else {
    files.push({ file: path, name: basename(path) });
  }
  for (const [done, { file, name }] of files.entries()) {
    options.onProgress?.({ done, total: files.length, file: name });
    const loader = LOADERS[extname(file).toLowerCase()];
    if (!loader) {
      result.skipped.push(name);
      continue;
    }
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      result.errors.push({ path: name, message: describe(error) });
      continue;
    }
    try {
      const loaded = await loader(text, name);
      result.documents.push(...loaded.documents);
      for (const error of loaded.errors) result.errors.push({ path: name, ...error });
    } catch (error) {
      result.errors.push({ path: name, message: describe(error) });
    }
  }
  options.onProgress?.({ done: files.length, total: files.length });
  return result;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function walk(
  folder: string,
  recursive: boolean,
  files: { file: string; name: string }[],
  errors: LoadError[],
  root: string,
): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    errors.push({ path: relative(root, folder).split(sep).join("/") || ".", message: describe(error) });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const file = join(folder, entry.name);
    const name = relative(root, file).split(sep).join("/");
    if (entry.isDirectory()) {
      if (recursive) await walk(file, recursive, files, errors, root);
    } else if (entry.isFile()) {
      files.push({ file, name });
    } else if (entry.isSymbolicLink()) {
      // Links to files inside the folder are followed; links to folders are not (no cycles); broken
      // links, and links that lead out of the folder (a path traversal: ~/.ssh/id_rsa served as
      // course material), are reported and not read.
      try {
        const target = await realpath(file);
        const inside = relative(await realpath(root), target);
        if (inside.startsWith("..") || isAbsolute(inside)) {
          errors.push({ path: name, message: "links to a file outside the folder; not read" });
        } else if ((await stat(target)).isFile()) files.push({ file, name });
      } catch (error) {
        errors.push({ path: name, message: describe(error) });
      }
    }
  }
}

/** Front matter and JSON values as metadata: scalars kept, lists of scalars as lists of strings, the rest dropped. */
function metadataValue(value: unknown): MetadataValue | undefined {
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const items = value.filter((v) => ["string", "number", "boolean"].includes(typeof v)).map(String);
    return items.length === value.length ? items : undefined;
  }
  return undefined;
}

function stringList(value: unknown): string[] | undefined {
  if (typeof value === "string") {
    const items = value
      .split(/[;,]/)
      .map((s) => s.trim())
      .filter(Boolean);
    return items.length > 0 ? items : undefined;
  }
  if (Array.isArray(value)) {
    const items = value
      .filter((v): v is string | number => typeof v === "string" || typeof v === "number")
      .map(String);
    return items.length > 0 ? items : undefined;
  }
  return undefined;
}

function authorList(value: unknown): string[] | undefined {
  if (typeof value === "string") {
    const items = value
      .split(/\s*;\s*|\s+and\s+/)
      .map((s) => s.trim())
      .filter(Boolean);
    return items.length > 0 ? items : undefined;
  }
  if (Array.isArray(value)) {
    const items = value
      .map((v) =>
        typeof v === "string" ? v : typeof v === "object" && v !== null && "name" in v ? String(v.name) : "",
      )
      .filter(Boolean);
    return items.length > 0 ? items : undefined;
  }
  return undefined;
}

function isoDate(value: unknown): string | undefined {
  const text = typeof value === "number" && Number.isInteger(value) ? String(value) : value;
  return typeof text === "string" && dateKey(text) !== undefined ? text.trim() : undefined;
}

const TEXT_FIELDS = ["text", "content", "body", "abstract"] as const;
const ID_FIELDS = ["id", "_id", "docid", "doc_id"] as const;
const KNOWN_FIELDS = new Set<string>([
  ...TEXT_FIELDS,
  ...ID_FIELDS,
  "title",
  "authors",
  "author",
  "date",
  "year",
  "tags",
  "keywords",
  "doi",
  "metadata",
]);

/**
 * Maps a record (a JSON object or front matter) to a document. Known fields go to their place; the others
 * (and a nested `metadata` object) become metadata when they are scalars or lists of scalars.
 */
function recordToDocument(
  record: Record<string, unknown>,
  fallback: { id: string; title?: string; text?: string; source: string },
): SearchDocument | string {
  const idField = ID_FIELDS.map((f) => record[f]).find((v) => typeof v === "string" || typeof v === "number");
  const textField = TEXT_FIELDS.map((f) => record[f]).find((v) => typeof v === "string");
  const text = fallback.text ?? (textField as string | undefined);
  if (text === undefined) return `no text field (one of ${TEXT_FIELDS.join(", ")})`;
  const title = typeof record.title === "string" ? record.title : fallback.title;
  const metadata: Record<string, MetadataValue> = {};
  const nested = record.metadata;
  const extra = Object.entries(record).filter(([key]) => !KNOWN_FIELDS.has(key));
  if (typeof nested === "object" && nested !== null && !Array.isArray(nested))
    extra.push(...Object.entries(nested));
  for (const [key, value] of extra) {
    const v = metadataValue(value);
    if (v !== undefined) metadata[key] = v;
  }
  const date = isoDate(record.date) ?? isoDate(record.year);
  if (date === undefined && record.date !== undefined) {
    const v = metadataValue(record.date);
    if (v !== undefined) metadata.date = v;
  }
  metadata.source ??= fallback.source;
  const authors = authorList(record.authors ?? record.author);
  const tags = stringList(record.tags ?? record.keywords);
  const doi = typeof record.doi === "string" ? record.doi : undefined;
  return {
    id: idField === undefined ? fallback.id : String(idField),
    ...(title === undefined ? {} : { title }),
    text,
    metadata,
    ...(authors ? { authors } : {}),
    ...(date ? { date } : {}),
    ...(tags ? { tags } : {}),
    ...(doi ? { doi } : {}),
  };
}

const withoutExtension = (file: string) => basename(file, extname(file));

/** Title from the first ATX (`# Title`) or setext (`Title` over `===`) heading. */
function firstHeading(body: string): string | undefined {
  const lines = body.split(/\r?\n/);
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const atx = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (atx) return atx[1];
    const next = lines[i + 1];
    if (
      line.trim() &&
      next !== undefined &&
      /^\s{0,3}(=+|-+)\s*$/.test(next) &&
      !/^\s{0,3}-+\s*$/.test(line)
    ) {
      return line.trim();
    }
  }
  return undefined;
}

async function markdown(text: string, file: string): Promise<Loaded> {
  const { parseFrontMatter } = await import("./internal/parse/front-matter.js");
  const { data, body, problems } = parseFrontMatter(text);
  const doc = recordToDocument(data, {
    id: file,
    title: firstHeading(body) ?? withoutExtension(file),
    text: body,
    source: file,
  });
  const errors = problems.map((message) => ({ message: `front matter ${message}` }));
  if (typeof doc === "string") return { documents: [], errors: [...errors, { message: doc }] };
  return { documents: [doc], errors };
}

function plainText(text: string, file: string): Loaded {
  return {
    documents: [{ id: file, title: withoutExtension(file), text, metadata: { source: file } }],
    errors: [],
  };
}

function jsonRecord(value: unknown, id: string, file: string): SearchDocument | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  return recordToDocument(value as Record<string, unknown>, { id, source: file });
}

function jsonLines(text: string, file: string): Loaded {
  const documents: SearchDocument[] = [];
  const errors: { line: number; message: string }[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      errors.push({ line: i + 1, message: describe(error) });
      return;
    }
    const doc = jsonRecord(value, `${file}#${i + 1}`, file);
    if (typeof doc === "string") errors.push({ line: i + 1, message: doc });
    else documents.push(doc);
  });
  return { documents, errors };
}

function json(text: string, file: string): Loaded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not one JSON value: read it as JSON Lines, which is what many ".json" corpora are.
    return jsonLines(text, file);
  }
  const items = Array.isArray(value) ? value : [value];
  const documents: SearchDocument[] = [];
  const errors: { message: string }[] = [];
  items.forEach((item, i) => {
    const doc = jsonRecord(item, Array.isArray(value) ? `${file}#${i}` : file, file);
    if (typeof doc === "string") errors.push({ message: `item ${i}: ${doc}` });
    else documents.push(doc);
  });
  return { documents, errors };
}

const BIB_CONSUMED = new Set(["title", "author", "year", "month", "date", "doi", "abstract", "keywords"]);

async function bibtex(text: string, file: string): Promise<Loaded> {
  const { parseBibtex } = await withOptionalPeer(
    "latex-utensils",
    "Reading BibTeX",
    () => import("./internal/parse/bibtex.js"),
  );
  const { entries, problems } = parseBibtex(text);
  const documents: SearchDocument[] = [];
  for (const entry of entries) {
    const f = entry.fields;
    const title = f.title === undefined ? undefined : latexToText(f.title);
    const abstract = f.abstract === undefined ? undefined : latexToText(f.abstract);
    const authors = f.author === undefined ? [] : splitAuthors(f.author);
    const month = f.month === undefined ? undefined : Number.parseInt(f.month, 10);
    const year = f.year?.trim();
    const date =
      f.date !== undefined && dateKey(f.date.trim()) !== undefined
        ? f.date.trim()
        : year && /^\d{4}$/.test(year)
          ? month && month >= 1 && month <= 12
            ? `${year}-${String(month).padStart(2, "0")}`
            : year
          : undefined;
    const tags = f.keywords === undefined ? [] : (stringList(latexToText(f.keywords)) ?? []);
    const metadata: Record<string, MetadataValue> = {
      entryType: entry.type,
      citationKey: entry.key,
      source: file,
    };
    for (const [name, value] of Object.entries(f)) {
      if (!BIB_CONSUMED.has(name)) metadata[name] = name === "url" ? value.trim() : latexToText(value);
    }
    if (year && date === undefined) metadata.year = latexToText(year);
    documents.push({
      id: entry.key,
      ...(title ? { title } : {}),
      // An entry without an abstract is still findable by its title.
      text: abstract ?? title ?? "",
      metadata,
      ...(authors.length > 0 ? { authors } : {}),
      ...(date ? { date } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...(f.doi ? { doi: f.doi.trim() } : {}),
    });
  }
  return { documents, errors: problems.map((p) => ({ line: p.line, message: p.message })) };
}
