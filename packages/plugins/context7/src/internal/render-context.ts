import type { z } from "zod";
import type { DocsSource } from "./docs-client.js";
import type { ContextResponseSchema } from "./upstream-schemas.js";

type ContextResponse = z.output<typeof ContextResponseSchema>;

const isHttpUrl = (s: string | null | undefined): s is string =>
  typeof s === "string" && /^https?:\/\//i.test(s);

/** A snippet URL without its `#_snippet_N` anchor, so snippets of one page share one source. */
const pageUrl = (url: string): string => url.replace(/#_snippet_\d+$/, "");

/** Collects source links, de-duplicated by URL, first title wins. */
class SourceList {
  readonly #byUrl = new Map<string, DocsSource>();
  add(url: string | null | undefined, title?: string | null): void {
    if (!isHttpUrl(url)) return;
    const clean = pageUrl(url.trim());
    if (this.#byUrl.has(clean)) return;
    this.#byUrl.set(clean, title ? { url: clean, title } : { url: clean });
  }
  toArray(): DocsSource[] {
    return [...this.#byUrl.values()];
  }
}

/**
 * Renders a JSON context response as the Markdown Context7 itself serves with `type=txt`
 * (`### title`, `Source: url`, description, fenced code), and lists its sources.
 *
 * @example
 * const { text, sources } = renderContext(await response.json(ContextResponseSchema));
 */
export const renderContext = (
  context: ContextResponse,
): { text: string; sources: DocsSource[]; snippets: number } => {
  const sources = new SourceList();
  const parts: string[] = [];
  for (const snippet of context.codeSnippets) {
    const lines: string[] = [`### ${snippet.codeTitle?.trim() || snippet.pageTitle?.trim() || "Example"}`];
    if (isHttpUrl(snippet.codeId)) lines.push(`Source: ${snippet.codeId}`);
    if (snippet.codeDescription?.trim()) lines.push(snippet.codeDescription.trim());
    for (const block of snippet.codeList) {
      lines.push(
        `\`\`\`${block.language ?? snippet.codeLanguage ?? ""}\n${block.code.replace(/\n+$/, "")}\n\`\`\``,
      );
    }
    parts.push(lines.join("\n\n"));
    sources.add(snippet.codeId, snippet.pageTitle ?? snippet.codeTitle);
  }
  for (const info of context.infoSnippets) {
    const lines: string[] = [`### ${info.breadcrumb?.trim() || "Documentation"}`];
    if (isHttpUrl(info.pageId)) lines.push(`Source: ${info.pageId}`);
    lines.push(info.content.trim());
    parts.push(lines.join("\n\n"));
    sources.add(info.pageId, info.breadcrumb);
  }
  return {
    text: parts.join("\n\n--------------------------------\n\n"),
    sources: sources.toArray(),
    snippets: context.codeSnippets.length + context.infoSnippets.length,
  };
};
