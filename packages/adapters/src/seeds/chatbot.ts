import type { ToolResult } from "@quiver/core";
import { callWith, dataRecord, errorLine, type SeedToolsOptions, type ToolCaller } from "./tool-caller.js";

/** One passage of the chatbot's `rag_search` answer. */
export interface ChatbotRagHit {
  readonly content: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly score: number | null;
}

/** The chatbot's `rag_search` answer: `{ok, total_results, results}`, with `error` when not ok. */
export interface ChatbotRagResult {
  readonly ok: boolean;
  readonly query: string | null;
  readonly total_results: number;
  readonly results: ReadonlyArray<ChatbotRagHit>;
  /** What went wrong (message and suggestion); absent when ok. */
  readonly error?: string;
  /** What to do instead when the material could not be searched. */
  readonly guidance?: string;
}

/** The guide as the chatbot's structured view spells it (`brief_description`, not `breve_descripcion`). */
export interface ChatbotGuia {
  readonly ok: boolean;
  readonly subject?: string;
  readonly asignatura?: string;
  readonly codigo?: string | null;
  readonly titulo?: string | null;
  readonly grado?: string | null;
  readonly curso?: string | null;
  readonly url?: string | null;
  /** Brief description of the contents (Quiver's `breve_descripcion`). */
  readonly brief_description?: ReadonlyArray<string>;
  readonly profesorado?: ReadonlyArray<string>;
  readonly secciones?: ReadonlyArray<string>;
  /** The section asked for with `key`, and its content. */
  readonly key?: string;
  readonly value?: unknown;
  readonly error?: string;
}

/** One option of a multiple-choice question, nested in its question. */
export interface ChatbotOption {
  readonly answer_text: string;
  readonly is_correct: boolean;
}

/** One question as the chatbot nests it: options and the answer inside the question. */
export interface ChatbotQuestion {
  readonly question_text: string;
  readonly question_type: "open" | "multiple_choice";
  readonly difficulty: string;
  /** The options, each saying whether it is correct; empty for open questions. */
  readonly options: ReadonlyArray<ChatbotOption>;
  /** The correct answer (for open questions a model answer) and why. */
  readonly answer: { readonly text: string | null; readonly explanation: string | null };
  readonly source: string | null;
}

/** The chatbot's `generate_test` answer. */
export interface ChatbotTest {
  readonly ok: boolean;
  readonly topic?: string;
  readonly asignatura?: string | null;
  readonly difficulty?: string;
  readonly questions: ReadonlyArray<ChatbotQuestion>;
  /** `llm`, or `rules` when built without an LLM (then the envelope was partial and `note` says why). */
  readonly generated_by?: string;
  readonly note?: string;
  readonly error?: string;
}

const usable = (r: ToolResult): boolean =>
  (r.status === "success" || r.status === "partial") && r.data !== undefined;

/**
 * Maps a `rag_search` envelope to the chatbot's `{ok, total_results, results}`.
 *
 * @example
 * const hits = toChatbotRagResult(await catalog.call("rag_search", { query, asignatura }));
 */
export const toChatbotRagResult = (r: ToolResult): ChatbotRagResult => {
  const d = dataRecord(r);
  if (!usable(r) || !Array.isArray(d.results)) {
    return {
      ok: false,
      query: null,
      total_results: 0,
      results: [],
      error: errorLine(r),
      ...(r.guidance ? { guidance: r.guidance } : {}),
    };
  }
  return {
    ok: true,
    query: typeof d.query === "string" ? d.query : null,
    total_results: typeof d.total_results === "number" ? d.total_results : d.results.length,
    results: d.results as ChatbotRagHit[],
  };
};

/**
 * Maps a `guia_get_guide` envelope to the chatbot's structured guide (`brief_description` spelled as
 * the chatbot spelled it); {@link toChatbotGuiaText} renders it as the string `get_guia` returned.
 *
 * @example
 * const guide = toChatbotGuia(await catalog.call("guia_get_guide", { asignatura: "metaheuristicas" }));
 */
export const toChatbotGuia = (r: ToolResult): ChatbotGuia => {
  if (!usable(r)) return { ok: false, error: errorLine(r) };
  const { breve_descripcion, type: _type, ...rest } = dataRecord(r);
  return {
    ok: true,
    ...rest,
    ...(breve_descripcion === undefined ? {} : { brief_description: breve_descripcion as string[] }),
  } as ChatbotGuia;
};

const label = (key: string): string => {
  const words = key.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A section's value as indented text: strings as they are, lists as dashes, objects as labels. */
const render = (value: unknown, indent = ""): string[] => {
  if (value === null || value === undefined) return [];
  if (typeof value !== "object") return [`${indent}${String(value)}`];
  if (Array.isArray(value)) {
    return value.flatMap((v) => {
      const lines = render(v, `${indent}  `);
      return lines.length === 0 ? [] : [`${indent}- ${lines[0]!.trimStart()}`, ...lines.slice(1)];
    });
  }
  return Object.entries(value).flatMap(([k, v]) => {
    const inner = render(v, `${indent}  `);
    if (inner.length === 1 && typeof v !== "object")
      return [`${indent}${label(k)}: ${inner[0]!.trimStart()}`];
    return inner.length === 0 ? [] : [`${indent}${label(k)}:`, ...inner];
  });
};

/**
 * Maps a `guia_get_guide` envelope to the string the chatbot's `get_guia` returned: the guide's
 * summary or the section asked for as readable text, or `Error: ...` when the call failed.
 *
 * @example
 * const text = toChatbotGuiaText(await catalog.call("guia_get_guide", { asignatura, key: "evaluación" }));
 */
export const toChatbotGuiaText = (r: ToolResult): string => {
  const g = toChatbotGuia(r);
  if (!g.ok) return `Error: ${g.error}`;
  const name = `${g.asignatura ?? g.subject ?? ""}${g.codigo ? ` (${g.codigo})` : ""}`;
  if (g.key !== undefined) {
    return [`Guía docente de ${name}, sección ${g.key}:`, ...render(g.value, "")].join("\n");
  }
  const line = (title: string, value: string | null | undefined) => (value ? [`${title}: ${value}`] : []);
  const list = (title: string, values: ReadonlyArray<string> | undefined) =>
    values && values.length > 0 ? [`${title}:`, ...values.map((v) => `- ${v}`)] : [];
  return [
    `Guía docente de ${name}`,
    ...line("Grado", g.grado),
    ...line("Curso", g.curso),
    ...line("URL", g.url),
    ...list("Profesorado", g.profesorado),
    ...list("Breve descripción de contenidos", g.brief_description),
    ...line("Secciones", g.secciones?.join(", ")),
  ].join("\n");
};

interface FlatQuestion {
  readonly question: string;
  readonly type: "open" | "multiple_choice";
  readonly difficulty: string;
  readonly options: ReadonlyArray<string>;
  readonly correct_index: number | null;
  readonly correct_answer: string | null;
  readonly explanation: string | null;
  readonly source: string | null;
}

const nest = (q: FlatQuestion): ChatbotQuestion => ({
  question_text: q.question,
  question_type: q.type,
  difficulty: q.difficulty,
  options: q.options.map((text, i) => ({ answer_text: text, is_correct: i === q.correct_index })),
  answer: { text: q.correct_answer, explanation: q.explanation },
  source: q.source,
});

/**
 * Maps a `testgen_generate_test` envelope to the chatbot's test: each question with its options
 * (`{answer_text, is_correct}`) and its answer nested inside it. A rule-built test (no LLM, envelope
 * `partial`) is still `ok`, with `generated_by: "rules"` and the reason in `note`.
 *
 * @example
 * const test = toChatbotTest(await catalog.call("testgen_generate_test", { topic, asignatura }));
 */
export const toChatbotTest = (r: ToolResult): ChatbotTest => {
  const d = dataRecord(r);
  if (!usable(r) || !Array.isArray(d.questions)) return { ok: false, questions: [], error: errorLine(r) };
  return {
    ok: true,
    topic: d.topic as string,
    asignatura: (d.asignatura as string | null) ?? null,
    difficulty: d.difficulty as string,
    questions: (d.questions as FlatQuestion[]).map(nest),
    generated_by: d.generated_by as string,
    ...(r.status === "partial" ? { note: r.message } : {}),
  };
};

/** Options of {@link createChatbotTools}. */
export interface ChatbotToolsOptions extends SeedToolsOptions {
  /** Tool names to call (defaults: `rag_search`, `guia_get_guide`, `testgen_generate_test`). */
  readonly tools?: { readonly ragSearch?: string; readonly getGuia?: string; readonly generateTest?: string };
}

/** The chatbot's three tools with its arguments (`asignatura` from the graph state) and shapes. */
export interface ChatbotTools {
  readonly rag_search: (args: {
    readonly query: string;
    readonly asignatura?: string;
    readonly tipo_documento?: string;
    readonly top_k?: number;
  }) => Promise<ChatbotRagResult>;
  /** Returns the guide as text, as the chatbot's `get_guia` did. */
  readonly get_guia: (args: { readonly asignatura?: string; readonly key?: string }) => Promise<string>;
  readonly generate_test: (args: {
    readonly topic: string;
    readonly asignatura?: string;
    readonly num_questions?: number;
    readonly difficulty?: "easy" | "medium" | "hard";
    readonly question_type?: "open" | "multiple_choice";
    readonly context?: string;
  }) => Promise<ChatbotTest>;
}

const defined = <T extends object>(args: T): T =>
  Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as T;

/**
 * The course chatbot's drop-in (for a JavaScript graph; a Python one uses the MCP recipe in the
 * README): `rag_search`, `get_guia` and `generate_test` with the chatbot's result shapes.
 *
 * @example
 * const tools = createChatbotTools(catalog);
 * const text = await tools.get_guia({ asignatura: state.asignatura, key: "evaluación" });
 */
export const createChatbotTools = (caller: ToolCaller, options: ChatbotToolsOptions = {}): ChatbotTools => ({
  rag_search: async (args) =>
    toChatbotRagResult(
      await callWith(caller, options.tools?.ragSearch ?? "rag_search", defined(args), options),
    ),
  get_guia: async (args) =>
    toChatbotGuiaText(
      await callWith(caller, options.tools?.getGuia ?? "guia_get_guide", defined(args), options),
    ),
  generate_test: async (args) =>
    toChatbotTest(
      await callWith(caller, options.tools?.generateTest ?? "testgen_generate_test", defined(args), options),
    ),
});
