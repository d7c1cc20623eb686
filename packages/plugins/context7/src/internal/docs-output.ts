import { z } from "zod";
import type { DocsContext, LibraryMatch } from "./docs-client.js";

/** A library as the model sees it in alternatives. */
export const LibraryRefSchema = z.object({
  id: z.string().describe("Context7 library id, e.g. /vercel/next.js"),
  title: z.string().describe("Library name"),
});

/** The documentation a docs tool returns. */
export const DocsOutputSchema = z.object({
  library_id: z.string().describe("The Context7 library id the documentation came from"),
  library_title: z.string().optional().describe("The library's name"),
  documentation: z.string().describe("Documentation snippets as Markdown, each with its source"),
  sources: z
    .array(
      z.object({
        url: z.string().describe("Source page"),
        title: z.string().optional().describe("Page or snippet title"),
      }),
    )
    .describe("Source links of the snippets, de-duplicated"),
  snippets: z.number().int().optional().describe("Number of snippets returned"),
  redirected_from: z.string().optional().describe("The id asked for, when Context7 moved the library"),
  alternatives: z.array(LibraryRefSchema).optional().describe("Other libraries that matched the name"),
});

/** Builds the tool output from a transport's answer. */
export const toDocsOutput = (
  docs: DocsContext,
  library?: LibraryMatch,
  alternatives: ReadonlyArray<LibraryMatch> = [],
): z.input<typeof DocsOutputSchema> => ({
  library_id: docs.libraryId,
  ...(library && library.id === (docs.redirectedFrom ?? docs.libraryId)
    ? { library_title: library.title }
    : {}),
  documentation: docs.text,
  sources: docs.sources.map((s) => (s.title ? { url: s.url, title: s.title } : { url: s.url })),
  ...(docs.snippets === undefined ? {} : { snippets: docs.snippets }),
  ...(docs.redirectedFrom ? { redirected_from: docs.redirectedFrom } : {}),
  // Each alternative as it is: the output schema keeps its id and title only.
  ...(alternatives.length > 0 ? { alternatives: [...alternatives] } : {}),
});

/** "12 snippets from 5 sources". */
export const describeDocs = (docs: DocsContext): string => {
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const snippets = docs.snippets === undefined ? "documentation" : count(docs.snippets, "snippet");
  return `${snippets} from ${count(docs.sources.length, "source")}`;
};

/** How the model should use documentation. */
export const DOCS_INSTRUCTION =
  "Answer from this documentation: it is current upstream documentation, so prefer it where it differs from what you remember. " +
  "Adapt its code to the user's case rather than pasting it whole, and cite the source links you relied on.";
