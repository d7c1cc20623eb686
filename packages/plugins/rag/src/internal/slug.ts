/** Lower case, accents removed, every run of other characters one `_` ("Metaheurísticas" → "metaheuristicas"). */
export const slug = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
