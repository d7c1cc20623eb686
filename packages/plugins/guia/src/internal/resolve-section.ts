import { slug } from "@quiver/core";

/** Names people and models use for a section → the keys real guides use (as slugs, first found wins). */
const ALIASES: Readonly<Record<string, ReadonlyArray<string>>> = Object.fromEntries(
  Object.entries({
    "objetivos objectives": "objetivos resultados_de_aprendizaje",
    "resultados learning_outcomes": "resultados_de_aprendizaje",
    "competencias competences competencies":
      "competencias resultados_del_proceso_de_formacion_y_de_aprendizaje",
    "generales general": "competencias_generales general_competences generales",
    especificas: "competencias_especificas specific_competences especificas",
    transversales: "competencias_transversales transversal_competences transversales",
    contenidos: "programa_de_contenidos_teoricos_y_practicos contenidos",
    "programa temario syllabus contents": "programa_de_contenidos_teoricos_y_practicos",
    "descripcion breve_descripcion description": "breve_descripcion_de_contenidos",
    "profesorado profesores": "profesorado_y_tutorias profesorado",
    "tutorias staff lecturers teachers": "profesorado_y_tutorias",
    "prerrequisitos requisitos recomendaciones prerequisites": "prerrequisitos_o_recomendaciones",
    "enlaces links": "enlaces_recomendados",
    "metodologia methodology": "metodologia_docente",
    "evaluation assessment sistema_de_evaluacion": "evaluacion",
    "bibliography references": "bibliografia",
    "informacion additional_information": "informacion_adicional",
    teoria: "teorico",
    practicas: "practico",
  }).flatMap(([names, keys]) => names.split(" ").map((name) => [name, keys.split(" ")])),
);

/** A section found in a guide: its real path and its value. */
type Section = { readonly path: string; readonly value: unknown };

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
/** The one element of `found`, if there is exactly one. */
const only = <T>(found: T[]) => (found.length === 1 ? found[0] : undefined);

/** The child of `node` a segment names: exact, alias, then a unique partial match. */
const child = (node: unknown, segment: string): { key: string; value: unknown } | undefined => {
  if (Array.isArray(node)) {
    const i = /^\d+$/.test(segment) ? Number(segment) : node.length;
    return i < node.length ? { key: String(i), value: node[i] } : undefined;
  }
  if (!isObject(node)) return undefined;
  const s = slug(segment);
  if (!s) return undefined;
  const keys = Object.keys(node);
  const bySlug = new Map(keys.map((k) => [slug(k), k]));
  const key =
    [s, ...(ALIASES[s] ?? [])].map((a) => bySlug.get(a)).find((k) => k !== undefined) ??
    only(keys.filter((k) => slug(k).endsWith(`_${s}`) || slug(k).startsWith(`${s}_`))) ??
    (s.length >= 4 ? only(keys.filter((k) => slug(k).includes(s))) : undefined);
  return key === undefined ? undefined : { key, value: node[key] };
};

/** The sections under the top level whose key matches `segment` (so `evaluación_ordinaria` finds `evaluación.evaluación_ordinaria`). */
const nested = (node: unknown, segment: string, prefix = "", depth = 0): Section[] =>
  !isObject(node) || depth > 4
    ? []
    : Object.entries(node).flatMap(([k, v]) => {
        const path = prefix ? `${prefix}.${k}` : k;
        const here = prefix && child({ [k]: v }, segment) ? [{ path, value: v }] : [];
        return [...here, ...nested(v, segment, path, depth + 1)];
      });

/**
 * Finds a section by name or dot path, tolerant of accents, spaces, case and the usual aliases
 * (`objetivos`, `competencias.generales`, `evaluacion.ordinaria`); one name not at the top level
 * is looked for below it, when only one section matches. Undefined when nothing matches.
 */
export const resolveSection = (guide: Readonly<Record<string, unknown>>, key: string) => {
  const segments = key.split(/[./]/).flatMap((s) => (s.trim() ? [s.trim()] : []));
  let node: unknown = guide;
  const path: string[] = [];
  for (const segment of segments) {
    const next = child(node, segment);
    if (!next) return segments.length === 1 ? only(nested(guide, segment)) : undefined;
    path.push(next.key);
    node = next.value;
  }
  return path.length > 0 ? { path: path.join("."), value: node } : undefined;
};

/** Every section a guide has: top-level keys, and `section.child` for object sections. */
export const sectionPaths = (guide: Readonly<Record<string, unknown>>): string[] =>
  Object.entries(guide).flatMap(([k, v]) => [
    k,
    ...(isObject(v) ? Object.keys(v).map((c) => `${k}.${c}`) : []),
  ]);
