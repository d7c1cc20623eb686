import type { SearchDocument } from "@quiver/search";

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const clean = (s: string) =>
  s
    .replace(/[ \t]*\n[ \t]*\t[ \t]*/g, " ")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
const label = (key: string) => key.replace(/_/g, " ");

const flatten = (value: unknown, depth = 0): string => {
  if (typeof value === "string") return clean(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map((v) => `- ${flatten(v, depth + 1)}`).join("\n");
  if (!isObj(value)) return "";
  // A scalar after its label on the line, anything else below it.
  const entry = ([k, v]: [string, unknown]) =>
    `${label(k)}:${typeof v === "string" || typeof v === "number" ? " " : "\n"}${flatten(v, depth + 1)}`;
  return Object.entries(value)
    .map(entry)
    .join(depth === 0 ? "\n" : "; ");
};

/** True for a UGR-style teaching guide: a JSON object whose `asignatura` is the guide's title and which has sections. */
export const isGuide = (value: unknown): value is Record<string, unknown> =>
  isObj(value) &&
  typeof value.asignatura === "string" &&
  Object.keys(value).length >= 3 &&
  !("text" in value) &&
  !("content" in value);

/**
 * A teaching guide as searchable documents: one per section (evaluación, bibliografía ...), titled
 * "<subject name>: <section>", tagged `asignatura` (the subject id) and `tipo_documento: guia_docente`.
 */
export const guideDocuments = (
  guide: Record<string, unknown>,
  subject: string,
  source: string,
): SearchDocument[] => {
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
