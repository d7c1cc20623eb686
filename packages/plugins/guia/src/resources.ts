import type { Completer, PluginResource, PluginResourceTemplate } from "@quiver/core";
import type { GuiaConfig } from "./config.js";
import { describeGuide, type Guide, subjectId } from "./internal/guide.js";
import { resolveSection, sectionPaths } from "./internal/resolve-section.js";
import { type GuiaResources, type GuideStore, storeFailed } from "./internal/stores/guide-store.js";

type Template = PluginResourceTemplate<GuiaConfig, GuiaResources>;
type Complete = Completer<GuiaConfig, GuiaResources>;

/** The URI of a guide, whole. */
const guideUri = (subject: string) => `guia://guides/${encodeURIComponent(subject)}`;

/** The stored guide of a subject id (a slug, else `invalid_input`), or undefined. */
const guideOf = (store: GuideStore, subject: string): Promise<Guide | undefined> =>
  store.get(subject).catch(storeFailed(store));

/** The guide as it was imported: its subject id, then its sections in the guide's order. */
const whole = (guide: Guide) => JSON.stringify({ subject: guide.subject, ...guide.data });

/** Completes `{subject}` from the stored guides: ids starting with what was typed, as an id or a name. */
const completeSubject: Complete = async (value, { resources: { store } }) => {
  const typed = subjectId(value);
  return (await store.list().catch(storeFailed(store)))
    .filter((l) => l.subject.startsWith(typed) || subjectId(l.name).startsWith(typed))
    .map((l) => l.subject);
};

/**
 * Completes `{section}` from the section paths of the subject the client has already filled in (MCP's
 * `context.arguments`), or of every stored guide when it has not.
 */
const completeSection: Complete = async (value, { resources: { store } }, { subject }) => {
  const subjects = subject
    ? [subjectId(subject)]
    : (await store.list().catch(storeFailed(store))).map((l) => l.subject);
  const guides = await Promise.all(subjects.map((s) => guideOf(store, s)));
  const paths = new Set(guides.flatMap((g) => (g ? sectionPaths(g.data) : [])));
  return [...paths].filter((p) => p.startsWith(value));
};

/** `guia://guides`: every stored guide's id, name, code and URI. */
const guideList: PluginResource<GuiaConfig, GuiaResources> = {
  uri: "guia://guides",
  name: "guides",
  title: "Teaching guides",
  description: "Every teaching guide served: subject id, name, code and the URI that reads it whole.",
  mimeType: "application/json",
  read: async ({ resources: { store } }) => {
    const listings = await store.list().catch(storeFailed(store));
    const guides = listings.map((l) => ({ ...l, uri: guideUri(l.subject) }));
    return [{ uri: "guia://guides", mimeType: "application/json", text: JSON.stringify({ guides }) }];
  },
};

/** `guia://guides/{subject}`: a teaching guide whole, as JSON (the subject id, then its sections). */
const guideTemplate: Template = {
  uriTemplate: "guia://guides/{subject}",
  name: "guide",
  title: "Teaching guide (guía docente)",
  description:
    "A subject's whole teaching guide as JSON, by subject id (metaheuristicas): every section as the guide gives it.",
  mimeType: "application/json",
  complete: { subject: completeSubject },
  read: async (uri, { subject }, { resources: { store } }) => {
    const guide = await guideOf(store, subject!);
    return guide ? [{ uri, mimeType: "application/json", text: whole(guide) }] : [];
  },
};

/**
 * `guia://guides/{subject}/sections/{section}`: one section (a top-level key such as `evaluación`, or a dot
 * path such as `evaluación.evaluación_ordinaria`, found as `guia_get_guide` finds its `key`), as JSON.
 */
const sectionTemplate: Template = {
  uriTemplate: "guia://guides/{subject}/sections/{section}",
  name: "guide-section",
  title: "Teaching guide section",
  description:
    "One section of a subject's teaching guide as JSON, by subject id and section (evaluación, bibliografía, competencias.generales ...).",
  mimeType: "application/json",
  complete: { subject: completeSubject, section: completeSection },
  read: async (uri, { subject, section }, { resources: { store } }) => {
    const guide = await guideOf(store, subject!);
    const found = guide && resolveSection(guide.data, section!);
    if (!found) return [];
    const { path: key, value } = found;
    const asignatura = describeGuide(guide).name;
    const text = JSON.stringify({ subject: guide.subject, asignatura, key, value });
    return [{ uri, mimeType: "application/json", text }];
  },
};

/** The guia plugin's fixed resource (the list of guides). */
export const guiaResources = [guideList];
/** The guia plugin's resource templates: a guide whole, and one of its sections. */
export const guiaResourceTemplates = [guideTemplate, sectionTemplate];
