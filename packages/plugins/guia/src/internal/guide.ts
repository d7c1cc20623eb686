import { slug } from "@quiver/core";

/** A teaching guide: its subject id and the guide document (section name → content), as scraped. */
export interface Guide {
  /** Stable id: lower case, no accents, `_` between words (`metaheuristicas`). */
  readonly subject: string;
  /** The guide's sections, as in the source (`asignatura`, `evaluación`, `bibliografía` ...). */
  readonly data: Readonly<Record<string, unknown>>;
}

/** What a store lists for each guide: enough to match a subject by id, name or code. */
export interface GuideListing {
  readonly subject: string;
  /** The subject's name (`Metaheurísticas`). */
  readonly name: string;
  /** The university's subject code (`296113E`), when the guide gives one. */
  readonly code: string | null;
}

/** Ids are what reaches a query: a short slug, never an object or an operator. */
const SUBJECT_ID = /^[a-z0-9][a-z0-9_-]{0,99}$/;

/**
 * True for a valid subject id. Stores call it before any lookup, so a value such as
 * `{"$ne": null}` or `"a.b"` never reaches a database query.
 *
 * @example
 * isSubjectId("metaheuristicas") // true
 * isSubjectId({ $ne: null })     // false
 */
export const isSubjectId = (value: unknown): value is string =>
  typeof value === "string" && SUBJECT_ID.test(value);

/**
 * Turns a name, file name or folder name into a subject id (`"Metaheurísticas"` → `metaheuristicas`).
 *
 * @example
 * subjectId("Modelos Avanzados de Computación") // "modelos_avanzados_de_computacion"
 */
export const subjectId = (text: string): string => slug(text).slice(0, 100);

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** The start of a guide's title line ("Guía docente de (la asignatura) "), and what follows its name. */
const TITLE_PREFIX = /^gu[ií]a\s+docente\s+de(\s+la\s+asignatura)?\s+/i;
const FROM_PARENTHESIS = /\s*\(.*$/;

/**
 * The subject's name and code read from a guide: explicit `nombre`/`name`/`codigo`/`code` fields win;
 * otherwise both come from the `asignatura` line ("Guía docente de Metaheurísticas (...) (296113E)").
 *
 * @example
 * describeGuide({ subject: "mh", data: { asignatura: "Guía docente de Metaheurísticas (296113E)" } })
 * // { subject: "mh", name: "Metaheurísticas", code: "296113E" }
 */
export const describeGuide = (guide: Guide): GuideListing => {
  const d = guide.data;
  const line = str(d.asignatura) ?? "";
  const code =
    str(d.codigo) ?? str(d.código) ?? str(d.code) ?? /\(([0-9A-Za-z]{4,12})\)\s*$/.exec(line)?.[1] ?? null;
  const fromLine = line.replace(TITLE_PREFIX, "").replace(FROM_PARENTHESIS, "").trim();
  const name = str(d.nombre) ?? str(d.name) ?? (fromLine || guide.subject);
  return { subject: guide.subject, name, code };
};

/** Why a document is not a guide, or the guide it is. */
export type GuideValidation =
  | { readonly ok: true; readonly guide: Guide }
  | { readonly ok: false; readonly reason: string };

const MAX_BYTES = 1_000_000;
const MAX_DEPTH = 12;

/** The first thing in `value` that is not plain, storable JSON (a `$` or dotted key, a NaN ...), if any. */
const checkValue = (value: unknown, path: string, depth: number): string | undefined => {
  if (depth > MAX_DEPTH) return `${path} is nested deeper than ${MAX_DEPTH} levels`;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${path} is not a finite number`;
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value !== "object") return `${path} has an unsupported type (${typeof value})`;
  const list = Array.isArray(value);
  const proto = Object.getPrototypeOf(value);
  if (!list && proto !== Object.prototype && proto !== null) return `${path} is not plain JSON`;
  for (const [key, v] of Object.entries(value)) {
    if (!list && (key === "" || key.startsWith("$") || key.includes(".") || key.includes("\u0000")))
      return `key "${key}" at ${path || "the top level"} is not allowed (empty, starts with "$" or contains ".")`;
    const problem = checkValue(v, list ? `${path}[${key}]` : path ? `${path}.${key}` : key, depth + 1);
    if (problem) return problem;
  }
  return undefined;
};

/**
 * Checks one document before it is stored: a plain JSON object with a subject name, safe keys (no
 * `$` operators, no dots), finite numbers, at most 1 MB; the id is the document's `subject` field,
 * else `fallbackId` (its file or folder name), else its name.
 *
 * @example
 * const checked = validateGuide(JSON.parse(text), "metaheuristicas")
 * if (!checked.ok) console.log(checked.reason)
 */
export const validateGuide = (raw: unknown, fallbackId?: string): GuideValidation => {
  const no = (reason: string) => ({ ok: false, reason }) as const;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return no("not a JSON object");
  const problem = checkValue(raw, "", 0);
  if (problem) return no(problem);
  const { _id, subject: explicit, ...doc } = raw as Record<string, unknown>;
  if (explicit !== undefined && typeof explicit !== "string") return no("field subject must be a string");
  if (!str(doc.asignatura) && !str(doc.nombre) && !str(doc.name))
    return no("missing the subject's name (field asignatura, nombre or name)");
  if (Object.keys(doc).length < 2) return no("has no sections besides the subject's name");
  if (JSON.stringify(doc).length > MAX_BYTES) return no(`larger than ${MAX_BYTES} bytes`);
  const candidate =
    (explicit && subjectId(explicit)) ||
    (fallbackId && subjectId(fallbackId)) ||
    subjectId(describeGuide({ subject: "", data: doc }).name);
  if (!isSubjectId(candidate)) return no(`cannot derive a valid subject id (got "${candidate}")`);
  return { ok: true, guide: { subject: candidate, data: doc } };
};
