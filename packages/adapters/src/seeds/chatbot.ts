import type { ToolResult } from "@quiver/core";
import { pythonJsonDumps } from "./python-json.js";
import { callWith, dataRecord, type SeedToolsOptions, type ToolCaller } from "./tool-caller.js";

/** One passage of the chatbot's `rag_search` answer. */
export interface ChatbotRagHit {
  readonly content: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly score: number | null;
}

/**
 * The chatbot's `rag_search` answer: `{ok: true, query, total_results, results}` (total_results is
 * the number of results returned), or `{ok: false, error}` with one of its four error strings.
 */
export type ChatbotRagResult =
  | {
      readonly ok: true;
      readonly query: string;
      readonly total_results: number;
      readonly results: ReadonlyArray<ChatbotRagHit>;
    }
  | { readonly ok: false; readonly error: ChatbotRagError };

/** The chatbot's `rag_search` error strings. */
export type ChatbotRagError =
  | "RAG service timeout"
  | "Cannot connect to RAG service"
  | "Error contacting RAG service"
  | "Unexpected error";

const usable = (r: ToolResult): boolean =>
  (r.status === "success" || r.status === "partial") && r.data !== undefined;

const ragError = (r: ToolResult): ChatbotRagError => {
  const kind = r.error?.kind;
  if (kind === "timeout" || r.status === "timeout") return "RAG service timeout";
  // An HTTP answer that was not the results (httpx's HTTPStatusError in the chatbot's own code).
  if (r.metadata.upstreamStatus !== undefined) return "Error contacting RAG service";
  if (kind === "unavailable") return "Cannot connect to RAG service";
  if (kind === "upstream" || kind === "rate_limited" || kind === "access_denied")
    return "Error contacting RAG service";
  return "Unexpected error";
};

/**
 * Maps a `rag_search` envelope to the chatbot's `rag_search` dict.
 *
 * @example
 * const hits = toChatbotRagResult(await catalog.call("rag_search", { query, asignatura }));
 */
export const toChatbotRagResult = (r: ToolResult, query?: string): ChatbotRagResult => {
  const d = dataRecord(r);
  if (!usable(r) || !Array.isArray(d.results)) return { ok: false, error: ragError(r) };
  const results = d.results as ChatbotRagHit[];
  return {
    ok: true,
    query: typeof d.query === "string" ? d.query : (query ?? ""),
    total_results: results.length,
    results,
  };
};

/** What `get_guia` was asked: the subject (from the graph state) and the section key. */
export interface ChatbotGuiaRequest {
  readonly asignatura?: string | null | undefined;
  readonly key?: string | null | undefined;
}

/**
 * Maps a `guia_get_guide` envelope to the string the chatbot's `get_guia` returned:
 * `json.dumps(section, ensure_ascii=False)` with a key, else of the summary `{subject, asignatura,
 * grado, curso, url, brief_description}` (the guide's title line, the first three items of its brief
 * description); `No guia found for subject`, `No guia found for subject: <asignatura>`,
 * `Key '<key>' not present in guia for subject <asignatura>` or `Error retrieving guia: <e>`.
 *
 * @example
 * const text = toChatbotGuiaText(await catalog.call("guia_get_guide", { asignatura, key }), { asignatura, key });
 */
export const toChatbotGuiaText = (r: ToolResult, request: ChatbotGuiaRequest): string => {
  const asignatura = request.asignatura?.trim() || undefined;
  if (!asignatura) return "No guia found for subject";
  if (!usable(r)) {
    if (request.key && r.error?.kind === "out_of_domain" && /has no section/.test(r.message))
      return `Key '${request.key}' not present in guia for subject ${asignatura}`;
    if (r.error?.kind === "out_of_domain" || r.error?.kind === "invalid_input")
      return `No guia found for subject: ${asignatura}`;
    return `Error retrieving guia: ${r.message}`;
  }
  const d = dataRecord(r);
  if (d.type === "section") return pythonJsonDumps(d.value);
  // The chatbot's summary: the guide document's own `asignatura` (its title line) and the first
  // three items of the brief description.
  return pythonJsonDumps({
    subject: d.subject,
    asignatura: d.titulo ?? d.asignatura,
    grado: d.grado ?? null,
    curso: d.curso ?? null,
    url: d.url ?? null,
    brief_description: Array.isArray(d.breve_descripcion) ? d.breve_descripcion.slice(0, 3) : [],
  });
};

/** One option of a multiple-choice question. */
export interface ChatbotAnswer {
  readonly answer_text: string;
  readonly is_correct: boolean;
}

/** One question of the chatbot's `generate_test` list (`MultipleChoiceTest`). */
export interface ChatbotTest {
  readonly question: { readonly question_text: string; readonly difficulty: string };
  /** Empty for open review questions. */
  readonly options: ReadonlyArray<ChatbotAnswer>;
}

interface FlatQuestion {
  readonly question: string;
  readonly difficulty: string;
  readonly options: ReadonlyArray<string>;
  readonly correct_index: number | null;
}

/** The chatbot's answer on any error: one open question about the topic, medium. */
export const fallbackTest = (topic: string): ChatbotTest[] => [
  { question: { question_text: `¿Qué has aprendido sobre ${topic}?`, difficulty: "medium" }, options: [] },
];

/**
 * Maps a `testgen_generate_test` envelope to the chatbot's `list[MultipleChoiceTest]`; on any error
 * the chatbot's one-question fallback.
 *
 * @example
 * const test = toChatbotTest(await catalog.call("testgen_generate_test", { topic }), topic);
 */
export const toChatbotTest = (r: ToolResult, topic: string): ChatbotTest[] => {
  const d = dataRecord(r);
  if (!usable(r) || !Array.isArray(d.questions) || d.questions.length === 0) return fallbackTest(topic);
  return (d.questions as FlatQuestion[]).map((q) => ({
    question: { question_text: q.question, difficulty: q.difficulty },
    options: q.options.map((text, i) => ({ answer_text: text, is_correct: i === q.correct_index })),
  }));
};

/** Options of {@link createChatbotTools}. */
export interface ChatbotToolsOptions extends SeedToolsOptions {
  /** Tool names to call (defaults: `rag_search`, `guia_get_guide`, `testgen_generate_test`). */
  readonly tools?: { readonly ragSearch?: string; readonly getGuia?: string; readonly generateTest?: string };
}

/** Arguments of the chatbot's `rag_search`. */
export interface ChatbotRagArgs {
  readonly query: string;
  readonly asignatura?: string | null;
  readonly tipo_documento?: string | null;
  readonly top_k?: number | null;
}

/** Arguments of the chatbot's `generate_test`. */
export interface ChatbotTestArgs {
  readonly topic: string;
  readonly num_questions?: number | null;
  readonly difficulty?: "easy" | "medium" | "hard" | null;
  readonly context?: string | null;
  readonly asignatura?: string | null;
  /** Quiver's addition: open (default) or multiple_choice. */
  readonly question_type?: "open" | "multiple_choice" | null;
}

/** The chatbot's three tools with its arguments (`asignatura` from the graph state) and shapes. */
export interface ChatbotTools {
  readonly rag_search: (args: ChatbotRagArgs) => Promise<ChatbotRagResult>;
  /** Returns a string, as the chatbot's `get_guia` did. */
  readonly get_guia: (args: ChatbotGuiaRequest) => Promise<string>;
  readonly generate_test: (args: ChatbotTestArgs) => Promise<ChatbotTest[]>;
}

/** Arguments without the ones left out (Python's None is "not given"). */
const given = <T extends object>(args: T): Record<string, unknown> =>
  Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null));

/**
 * The course chatbot's drop-in: `rag_search`, `get_guia` and `generate_test` with the chatbot's
 * arguments and result shapes (a Python graph uses `quiver serve --profile chatbot`).
 *
 * @example
 * const tools = createChatbotTools(catalog);
 * const text = await tools.get_guia({ asignatura: state.asignatura, key: "competencias" });
 */
export const createChatbotTools = (caller: ToolCaller, options: ChatbotToolsOptions = {}): ChatbotTools => ({
  rag_search: async (args) =>
    toChatbotRagResult(
      await callWith(caller, options.tools?.ragSearch ?? "rag_search", given(args), options),
      args.query,
    ),
  get_guia: async (args) => {
    // The chatbot answered without a lookup when the state held no subject.
    if (!args.asignatura?.trim()) return toChatbotGuiaText({} as ToolResult, args);
    return toChatbotGuiaText(
      await callWith(caller, options.tools?.getGuia ?? "guia_get_guide", given(args), options),
      args,
    );
  },
  generate_test: async (args) => {
    try {
      return toChatbotTest(
        await callWith(caller, options.tools?.generateTest ?? "testgen_generate_test", given(args), options),
        String(args.topic ?? ""),
      );
    } catch {
      return fallbackTest(String(args.topic ?? ""));
    }
  },
});
