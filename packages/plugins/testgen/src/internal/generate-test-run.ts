import { outcome, partial, ToolFailure } from "@quiver/core";
import { llmSettings, type TestgenContext } from "../config.js";
import type { GenerateTestInput } from "../tools/generate-test.js";
import { askLlm } from "./chat-completions.js";
import { DIFFICULTIES, type Difficulty, type Material } from "./questions.js";
import { ruleQuestions } from "./rule-questions.js";

/** A professor's defaults for a subject (none found: empty), or why they could not be read (`failed`). */
type Preferences = Readonly<{ numQuestions?: number; difficulty?: Difficulty; failed?: string }>;

/**
 * GET {backendUrl}/users/subject/{subject}/preferences (the original backend's endpoint, answering
 * `{default_test_questions, default_test_difficulty}`, maybe under `preferences`), with its own short
 * deadline; none without a backend URL. Never throws: a timeout, a refused connection or a bad answer mean "use the defaults", with
 * `failed` saying why.
 */
const fetchPreferences = async (ctx: TestgenContext, subject: string): Promise<Preferences> => {
  const { backendUrl: baseUrl, preferencesTimeoutMs: timeoutMs } = ctx.config;
  if (!baseUrl) return {};
  const url = `/users/subject/${encodeURIComponent(subject)}/preferences`;
  const json = { headers: { accept: "application/json" }, acceptStatus: [404] };
  try {
    const res = await ctx.http.request({ ...json, baseUrl, url, timeoutMs, signal: ctx.signal });
    if (res.status === 404) return {};
    const body = res.json() as Record<string, any> | null;
    const p = body?.preferences && typeof body.preferences === "object" ? body.preferences : (body ?? {});
    const n = p.default_test_questions ?? p.num_questions ?? p.numQuestions;
    const d = p.default_test_difficulty ?? p.difficulty;
    return {
      ...(Number.isInteger(n) ? { numQuestions: Math.min(10, Math.max(1, n)) } : {}),
      ...(DIFFICULTIES.includes(d) ? { difficulty: d } : {}),
    };
  } catch (error) {
    if (!ToolFailure.isInstance(error)) throw error;
    return { failed: error.message };
  }
};

/** The material questions are based on, where it came from, and why rag gave nothing when it was tried. */
const grounded = (kind: keyof typeof GROUNDED_IN, material: ReadonlyArray<Material> = [], note?: string) => ({
  kind,
  material,
  ...(note ? { note } : {}),
});

/** The companion tool testgen asks for material when no context is given. */
const RAG_TOOL = "rag_search";

/**
 * The material to ground questions in: the `context` argument when given; else the results of
 * `rag_search` (when the rag plugin is in the same catalog) for the topic and subject; else none.
 */
const ground = async (ctx: TestgenContext, topic: string, context?: string, asignatura?: string) => {
  if (context?.trim()) return grounded("context", [{ text: context, source: "context" }]);
  if (!ctx.hasTool(RAG_TOOL)) return grounded("none");
  const search = { query: topic, top_k: 6, ...(asignatura ? { asignatura } : {}) };
  const result = await ctx.callTool(RAG_TOOL, search);
  const results = (result.data as { results?: unknown } | undefined)?.results;
  if ((result.status !== "success" && result.status !== "partial") || !Array.isArray(results))
    return grounded("none", [], `${RAG_TOOL} answered ${result.status}: ${result.message}`);
  const material = (results as Array<{ content?: unknown; metadata?: { source?: unknown } }>).flatMap(
    ({ content, metadata }) =>
      typeof content === "string" && content.trim() !== ""
        ? [{ text: content, source: typeof metadata?.source === "string" ? metadata.source : undefined }]
        : [],
  );
  return material.length > 0
    ? grounded("rag", material)
    : grounded("none", [], `${RAG_TOOL} found nothing for "${topic}"`);
};

const GROUNDED_IN = {
  context: "the given material",
  rag: "course-material search results",
  none: "the topic alone (no material)",
} as const;

const from = (given: unknown, professor: unknown) =>
  given !== undefined ? "argument" : professor !== undefined ? "professor" : "default";

/**
 * The body of `testgen_generate_test` (its definition and schemas are in tools/generate-test.ts): kept apart so
 * listing the tool does not load the LLM client, the grounding and the rule-based generator.
 */
export const runGenerateTest = async (args: GenerateTestInput, ctx: TestgenContext) => {
  // The steps reported as progress: preferences and material, the LLM's batch, the answer checked.
  const step = (progress: number, message: string) => ctx.progress({ progress, total: 3, message });
  const asignatura = args.asignatura?.trim() || undefined;
  step(0, "reading the professor's preferences and the material");
  const needPrefs = args.num_questions === undefined || args.difficulty === undefined;
  const prefs: Preferences = needPrefs && asignatura ? await fetchPreferences(ctx, asignatura) : {};
  // Neither the arguments nor the professor's preferences say: 5 questions, medium.
  const count = args.num_questions ?? prefs.numQuestions ?? 5;
  const difficulty = args.difficulty ?? prefs.difficulty ?? "medium";
  const type = args.question_type ?? "open";

  const grounding = await ground(ctx, args.topic, args.context, asignatura);
  const settings_from = {
    num_questions: from(args.num_questions, prefs.numQuestions),
    difficulty: from(args.difficulty, prefs.difficulty),
  } as const;
  const base = { asignatura, grounding: grounding.kind, settings_from } as const;
  const notes = [
    prefs.failed && `professor preferences unavailable (${prefs.failed}), defaults used`,
    grounding.note,
  ].filter(Boolean);
  const notesText = notes.length ? ` Note: ${notes.join("; ")}.` : "";
  const groundedIn = GROUNDED_IN[grounding.kind];

  const ask = { topic: args.topic, material: grounding.material, count, difficulty, type, asignatura };
  const byRules = (why: string) => {
    const questions = ruleQuestions(ask);
    // Rules make multiple choice only where the material gives options.
    const mcNote = questions.some((q) => q.type !== type)
      ? " Some are open questions: multiple choice needs more material."
      : "";
    const message = `${why}: ${questions.length} questions were built without an LLM from ${groundedIn} (key sentences as definition and fill-in questions).${mcNote}${notesText}`;
    return partial({ ...base, questions, generated_by: "rules" as const }, message);
  };

  const llm = llmSettings(ctx.config);
  if (!llm.ok) return byRules(`No LLM configured (${llm.reason})`);
  ctx.reportPartial(byRules("The LLM did not answer in time").data);
  step(1, `asking the LLM for ${count} questions`);
  const answer = await askLlm(llm, ask, ctx);
  if (!answer.ok) return byRules(`The LLM failed (${answer.reason})`);
  step(2, `the LLM answered ${answer.questions.length} questions`);

  const given = answer.questions.slice(0, count);
  // Fewer than asked: the rest built by rules.
  const missing = count - given.length;
  const questions = missing > 0 ? [...given, ...ruleQuestions(ask).slice(0, missing)] : given;
  const data = { ...base, questions, generated_by: "llm" as const };
  const how = `${answer.model} via ${answer.format}${answer.repaired ? " after one repair round" : ""}`;
  const toppedUp = `The LLM returned ${answer.questions.length} of ${count} questions; the rest were built without it from ${groundedIn}.${notesText}`;
  if (missing > 0) return partial(data, toppedUp, { source: how });
  return outcome(data, {
    message: `${questions.length} ${type === "multiple_choice" ? "multiple-choice" : "open"} ${difficulty} questions on "${args.topic}" from ${how}, based on ${groundedIn}.${notesText}`,
    source: how,
  });
};
