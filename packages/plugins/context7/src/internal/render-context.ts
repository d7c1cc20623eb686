import type { z } from "zod";
import type { DocsSource } from "./docs-client.js";
import type { ContextResponseSchema } from "./upstream-schemas.js";

/** A field Context7 may leave out or send as null. */
type MaybeText = string | null | undefined;

/**
 * Renders a JSON context response as the Markdown Context7 itself serves with `type=txt`
 * (`### title`, `Source: url`, description, fenced code): its `text`, its `sources` (one per page)
 * and the number of `snippets`.
 *
 * @example
 * const { text, sources } = renderContext(await response.json(ContextResponseSchema));
 */
export const renderContext = (context: z.output<typeof ContextResponseSchema>) => {
  // Source links by page (a snippet URL without its `#_snippet_N` anchor), the first title kept.
  const sources = new Map<string, DocsSource>();
  /** One `### heading` section, with its `Source:` line when it has a web link. */
  const section = (heading: string, url: MaybeText, title: MaybeText, body: string[]) => {
    if (typeof url !== "string" || !/^https?:\/\//i.test(url))
      return [`### ${heading}`, ...body].join("\n\n");
    const page = url.trim().replace(/#_snippet_\d+$/, "");
    if (!sources.has(page)) sources.set(page, title ? { url: page, title } : { url: page });
    return [`### ${heading}`, `Source: ${url}`, ...body].join("\n\n");
  };
  const parts = [
    ...context.codeSnippets.map((s) =>
      section(s.codeTitle?.trim() || s.pageTitle?.trim() || "Example", s.codeId, s.pageTitle ?? s.codeTitle, [
        ...(s.codeDescription?.trim() ? [s.codeDescription.trim()] : []),
        ...s.codeList.map(
          (b) => `\`\`\`${b.language ?? s.codeLanguage ?? ""}\n${b.code.replace(/\n+$/, "")}\n\`\`\``,
        ),
      ]),
    ),
    ...context.infoSnippets.map((i) =>
      section(i.breadcrumb?.trim() || "Documentation", i.pageId, i.breadcrumb, [i.content.trim()]),
    ),
  ];
  return {
    text: parts.join("\n\n--------------------------------\n\n"),
    sources: [...sources.values()],
    snippets: context.codeSnippets.length + context.infoSnippets.length,
  };
};
