import { closestMatches, defineToolWith, fail, outcome, slug } from "@quiver/core";
import { z } from "zod";
import type { GuiaConfig } from "../config.js";
import type { Guide, GuideListing } from "../internal/guide.js";
import { resolveSection, sectionPaths } from "../internal/resolve-section.js";
import { type GuiaResources, storeFailed } from "../internal/stores/guide-store.js";

/** A subject or section name: what both input fields accept. */
const name = (description: string) => z.string().min(1).max(200).optional().describe(description);

const input = z.object({
  asignatura: name(
    "The subject: its id (metaheuristicas), name (Metaheurísticas) or code (296113E). Leave it out to use the student's current subject.",
  ),
  key: name(
    "Section to return, e.g. evaluación, bibliografía, competencias, objetivos, metodología docente, profesorado y tutorías, " +
      "breve descripción de contenidos, programa de contenidos, prerrequisitos, enlaces, or a dot path such as " +
      "evaluación.evaluación_ordinaria or competencias.generales. Leave it out for a summary of the guide.",
  ),
});

/** The fields both answers start with: which guide they come from. */
const guideFields = {
  subject: z.string().describe("Subject id"),
  asignatura: z.string().describe("Subject name"),
  codigo: z.string().optional().describe("University subject code, when the guide gives it"),
};

const summary = z.object({
  type: z.literal("summary"),
  ...guideFields,
  titulo: z.string().optional().describe("The guide's title line"),
  grado: z.string().optional().describe("Degree"),
  curso: z.string().optional().describe("Academic year, when the guide gives it"),
  url: z.string().optional().describe("The guide's web page, when known"),
  breve_descripcion: z.array(z.string()).describe("Brief description of the contents"),
  profesorado: z.array(z.string()).describe("Lecturers and their role"),
  secciones: z.array(z.string()).describe("Sections that can be asked for with `key`"),
});

const section = z.object({
  type: z.literal("section"),
  ...guideFields,
  key: z.string().describe("The section's path in the guide"),
  value: z.unknown().describe("The section as the guide gives it"),
});

const output = z.discriminatedUnion("type", [summary, section]);

/** What `guia_get_guide` returns: a summary of the guide, or one section. */
export type GetGuideOutput = z.output<typeof output>;

/** A line break into indentation with tabs (the scraped page's layout), and runs of blanks. */
const INDENTED_BREAK = /[ \t]*\n[ \t]*\t[ \t]*/g;
const BLANKS = /[ \t]{2,}/g;
/** Collapses the scraped page's indentation ("MD01.\n\t\t\tLección magistral.") into single spaces. */
const cleanText = (text: string): string => text.replace(INDENTED_BREAK, " ").replace(BLANKS, " ").trim();

/** A copy of a JSON value with every string cleaned by {@link cleanText} (a JSON round trip with a reviver). */
const cleanValue = (value: unknown): unknown =>
  value === undefined
    ? value
    : JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === "string" ? cleanText(v) : v));

/**
 * The three candidates closest to `wanted` (by slug), best first: those containing it or contained in it,
 * then the nearest by edit distance.
 */
const closest = (wanted: string, candidates: ReadonlyArray<string>): string[] => {
  const w = slug(wanted);
  const overlaps = (c: string) => slug(c).includes(w) || w.includes(slug(c));
  const maxDistance = Math.max(3, Math.floor(w.length / 2));
  const others = candidates.filter((c) => !overlaps(c));
  const near = closestMatches(others, w, { key: slug, limit: 3, maxDistance });
  return [...candidates.filter(overlaps), ...near].slice(0, 3);
};

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? cleanText(v) : undefined);
const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string").map(cleanText);

/** What a summary reads from the guide, besides which guide it is. */
const summarise = (d: Guide["data"]) => {
  const staff = Array.isArray(d.profesorado_y_tutorias) ? d.profesorado_y_tutorias : [];
  return {
    titulo: str(d.asignatura),
    grado: str(d.grado),
    curso: str(d.curso) ?? str(d.curso_académico) ?? str(d.curso_academico),
    url: str(d.url),
    breve_descripcion: strings(d.breve_descripción_de_contenidos ?? d.breve_descripcion_de_contenidos),
    profesorado: staff.flatMap((p) =>
      typeof p?.nombre === "string" ? [`${p.nombre}${typeof p.rol === "string" ? ` (${p.rol})` : ""}`] : [],
    ),
    secciones: Object.keys(d),
  };
};

/** "metaheuristicas (Metaheurísticas, 296113E)" for each listing. */
const describeListings = (listings: ReadonlyArray<GuideListing>): string =>
  listings.map((l) => `${l.subject} (${l.name}${l.code ? `, ${l.code}` : ""})`).join("; ");

/** The listings' ids, for a suggestion ("metaheuristicas, mac"). */
const subjectIds = (listings: ReadonlyArray<GuideListing>) => listings.map((l) => l.subject).join(", ");

/**
 * The guide a subject given as id (`metaheuristicas`), name (`Metaheurísticas`), code (`296113E`) or
 * the guide's title line names; then a unique partial match ("modelos avanzados"). Several matches,
 * or none, are `out_of_domain` failures listing the candidates (and the nearest names, when none).
 */
const resolveSubject = (wanted: string, listings: ReadonlyArray<GuideListing>): GuideListing => {
  const s = slug(wanted);
  // A code as given, or at the end of a title line ("Guía docente de X (296113E)").
  const codes = [s, slug(/\(([0-9A-Za-z]{4,12})\)\s*$/.exec(wanted)?.[1] ?? s)];
  const exact = (l: GuideListing) =>
    l.subject === s || slug(l.name) === s || (l.code !== null && codes.includes(slug(l.code)));
  // One contains the other; a name counts as inside `wanted` only from 4 characters on.
  const overlap = (id: string, min = 0) => id.includes(s) || (id.length >= min && s.includes(id));
  const partial = (l: GuideListing) => overlap(l.subject) || overlap(slug(l.name), 4);
  for (const matches of [listings.filter(exact), s ? listings.filter(partial) : []]) {
    if (matches.length > 1)
      throw fail.outOfDomain(`"${wanted}" matches several subjects: ${describeListings(matches)}.`, {
        suggestion: `Use one of: ${subjectIds(matches)}.`,
      });
    if (matches.length === 1) return matches[0]!;
  }
  const candidates = listings.flatMap((l) => [l.subject, l.name]);
  const names = closest(wanted, candidates);
  const near = listings.filter((l) => names.includes(l.subject) || names.includes(l.name));
  const message = `There is no teaching guide for "${wanted}". Guides available: ${describeListings(listings)}.`;
  const didYouMean = near.map((l) => `"${l.subject}"`).join(" or ");
  const suggestion = didYouMean ? `Did you mean ${didYouMean}?` : `Use one of: ${subjectIds(listings)}.`;
  throw fail.outOfDomain(message, { suggestion });
};

/**
 * `guia_get_guide`: the teaching guide of a subject from the store `setup` opened, as a summary or one
 * section. The session's `asignatura` fills the field when the model leaves it out
 * (`createGuiaPlugin({ sessionAsignatura: "override" })` hides it instead).
 *
 * @example
 * await catalog.call("guia_get_guide", { key: "evaluación" }, { session: { values: { asignatura: "metaheuristicas" } } })
 */
export const getGuide = defineToolWith<GuiaConfig, GuiaResources>()({
  name: "guia_get_guide",
  title: "Teaching guide (guía docente)",
  description:
    "Returns the official teaching guide (guía docente) of a university subject: without `key`, a summary " +
    "(name, code, degree, lecturers, brief description, the sections available); with `key`, one section such as " +
    "evaluación (grading), bibliografía, competencias, objetivos, metodología docente, profesorado y tutorías or the " +
    "syllabus. Use this when a student asks how a subject is graded, what it covers, its bibliography, its lecturers " +
    "or its official rules.",
  category: "course_material",
  input,
  output,
  examples: [
    { input: { asignatura: "metaheuristicas" }, description: "Summary of the Metaheurísticas guide" },
    {
      input: { asignatura: "metaheuristicas", key: "evaluación" },
      description: "How Metaheurísticas is graded",
    },
    { input: { asignatura: "Modelos Avanzados de Computación", key: "competencias.generales" } },
  ],
  annotations: { readOnly: true, idempotent: true, openWorld: false },
  policy: { timeout: "15s", retry: { times: 1 }, cache: false, maxOutputChars: 20_000 },
  instruction:
    "Answer from this official guide. Quote percentages, minimum marks and requirements exactly, name the section " +
    "you used, and say so when the guide does not cover the question.",
  run: async (args, ctx) => {
    const store = ctx.resources.store;
    // Store failures other than ours become `unavailable` (a broken folder, a dropped connection).
    const failed = storeFailed(store);
    const listings = await store.list().catch(failed);
    if (listings.length === 0)
      throw fail.unavailable(`The ${store.kind} guide store holds no guides.`, {
        retryable: false,
        suggestion: "Import guides with `quiver guia import <file|folder>`.",
      });
    const wanted = args.asignatura?.trim();
    if (!wanted)
      throw fail.invalidInput(
        `No subject given and the session has none. Guides available: ${describeListings(listings)}.`,
        { suggestion: `Call guia_get_guide again with asignatura set to one of: ${subjectIds(listings)}.` },
      );
    const listing = resolveSubject(wanted, listings);
    const guide = await store.get(listing.subject).catch(failed);
    if (!guide) throw fail.outOfDomain(`The guide for "${listing.subject}" is no longer stored.`);
    // Which guide the answer comes from (`guideFields`).
    const head = { subject: listing.subject, asignatura: listing.name, codigo: listing.code ?? undefined };
    const name = `${listing.name}${listing.code ? ` (${listing.code})` : ""}`;
    const source = `guía docente ${name}`;
    if (args.key === undefined) {
      const data = { type: "summary" as const, ...head, ...summarise(guide.data) };
      const message = `Teaching guide of ${name}: summary; ${data.secciones.length} sections available.`;
      return outcome(data, { message, source });
    }
    const found = resolveSection(guide.data, args.key);
    if (!found) {
      const paths = sectionPaths(guide.data);
      const near = closest(args.key, paths)[0];
      const suggestion = near
        ? `Did you mean key "${near}"?`
        : "Leave key out to see the summary and its sections.";
      const message = `The guide of ${listing.name} has no section "${args.key}". Sections: ${paths.join(", ")}.`;
      throw fail.outOfDomain(message, { suggestion });
    }
    const message = `Section ${found.path} of the teaching guide of ${listing.name}.`;
    const value = cleanValue(found.value);
    return outcome({ type: "section" as const, ...head, key: found.path, value }, { message, source });
  },
});
