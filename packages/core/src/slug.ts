/**
 * An identifier from a title: lower case, accents removed, every run of other characters one `_`
 * ("Metaheurísticas avanzadas" → "metaheuristicas_avanzadas"). The plugins' stored ids (guide
 * subjects, indexed documents) are built with it. Written here rather than taken from a slug library:
 * those transliterate (`&` → `and`, `ß` → `ss`) and split camel case, which would rename ids that
 * existing indexes already hold.
 *
 * @example
 * slug("Redes  Neuronales (II)") // "redes_neuronales_ii"
 */
export const slug = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
