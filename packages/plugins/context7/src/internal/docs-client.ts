/**
 * One library Context7 knows, as a transport's `searchLibraries` returns it.
 *
 * @example
 * const react: LibraryMatch = { id: "/facebook/react", title: "React", trustScore: 10, versions: ["v18.2.0"] };
 */
export interface LibraryMatch {
  /** Context7 library id: `/owner/repo`, `/websites/<x>`, optionally `/owner/repo/<version>`. */
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  /** 0–10; ≥ 7 is a well-established source. */
  readonly trustScore?: number;
  /** 0–100, Context7's quality benchmark. */
  readonly benchmarkScore?: number;
  /** Code snippets indexed (undefined when unknown). */
  readonly snippets?: number;
  readonly stars?: number;
  /** Version tags that can be pinned as `/owner/repo/<version>`. */
  readonly versions?: ReadonlyArray<string>;
  /** ISO date of the last index update. */
  readonly lastUpdated?: string;
  /** Index state: `finalized` is ready; `initial` and `processing` are not yet. */
  readonly state?: string;
}

/**
 * A link to where a piece of documentation came from.
 *
 * @example
 * const source: DocsSource = { url: "https://github.com/vercel/next.js/blob/canary/docs/middleware.mdx", title: "Middleware" };
 */
export interface DocsSource {
  readonly url: string;
  readonly title?: string;
}

/**
 * The documentation Context7 returned for one library and query (what a transport's `getContext` returns).
 *
 * @example
 * const docs: DocsContext = { libraryId: "/vercel/next.js", text: "### Middleware ...", sources: [] };
 */
export interface DocsContext {
  /** The library id that answered (after a redirect, the new id). */
  readonly libraryId: string;
  /** The documentation as Markdown text: snippets with titles, sources and code blocks. */
  readonly text: string;
  /** Source links, de-duplicated, in the order they appear. */
  readonly sources: ReadonlyArray<DocsSource>;
  /** Snippets in the answer, when the transport says. */
  readonly snippets?: number;
  /** The id originally asked for, when Context7 redirected it. */
  readonly redirectedFrom?: string;
}

/**
 * Per-request options every transport receives.
 *
 * @example
 * await client.getContext({ libraryId: "/vercel/next.js", query: "middleware" }, { signal: AbortSignal.timeout(30_000) });
 */
export interface DocsRequestOptions {
  /** Aborted on timeout or cancellation: pass it on. */
  readonly signal: AbortSignal;
}

/**
 * How the plugin talks to Context7. The HTTP transport is built in; a host can inject another one
 * (a cache, a proxy, a fake in tests).
 *
 * Use it when Context7 is reached by something other than its HTTP API. Failures should be thrown as
 * `ToolFailure`s (`fail.unavailable(...)` for a dead transport); a library that does not exist is
 * `searchLibraries` → `[]` or `getContext` → a `ToolFailure` with `status: 404`. Anything else thrown
 * is treated as the transport being unavailable.
 *
 * @example
 * const docsClient: DocsClient = {
 *   searchLibraries: async ({ libraryName }) => [{ id: "/facebook/react", title: "React" }],
 *   getContext: async ({ libraryId }) => ({ libraryId, text: "### useState ...", sources: [] }),
 * };
 * const plugin = createContext7Plugin({ docsClient });
 */
export interface DocsClient {
  /** Finds libraries by name, ranked for the task in `query`. An empty list means no match. */
  searchLibraries(
    request: { readonly libraryName: string; readonly query: string },
    options: DocsRequestOptions,
  ): Promise<ReadonlyArray<LibraryMatch>>;
  /** Fetches the documentation of one library relevant to `query`. */
  getContext(
    request: { readonly libraryId: string; readonly query: string },
    options: DocsRequestOptions,
  ): Promise<DocsContext>;
}
