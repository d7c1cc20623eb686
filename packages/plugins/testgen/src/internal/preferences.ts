import { type ToolContext, ToolFailure } from "@quiver/core";
import type { TestgenConfig } from "../config.js";
import { DIFFICULTIES, type Difficulty } from "./questions.js";

/** A professor's defaults for a subject, and how they were obtained. */
export interface Preferences {
  readonly status: "found" | "none" | "failed" | "skipped";
  readonly numQuestions?: number;
  readonly difficulty?: Difficulty;
  /** Why they could not be read (status failed). */
  readonly note?: string;
}

const pick = (body: unknown): { n?: unknown; d?: unknown } => {
  if (!body || typeof body !== "object") return {};
  const r = body as Record<string, unknown>;
  const inner =
    r.preferences && typeof r.preferences === "object" ? (r.preferences as Record<string, unknown>) : r;
  return {
    n: inner.default_test_questions ?? inner.num_questions ?? inner.numQuestions,
    d: inner.default_test_difficulty ?? inner.difficulty,
  };
};

/**
 * GET {backend}/users/subject/{subject}/preferences (the original backend's endpoint, answering
 * `{default_test_questions, default_test_difficulty}`), with its own short deadline. Never throws:
 * a timeout, a refused connection or a bad answer mean "use the defaults", with a note saying why.
 */
export const fetchPreferences = async (
  { http, config, signal }: Pick<ToolContext<TestgenConfig>, "http" | "config" | "signal">,
  backendUrl: string,
  subject: string,
): Promise<Preferences> => {
  try {
    const res = await http.request({
      baseUrl: backendUrl,
      url: `/users/subject/${encodeURIComponent(subject)}/preferences`,
      timeoutMs: config.preferencesTimeoutMs,
      signal,
      acceptStatus: [404],
      headers: { accept: "application/json" },
    });
    if (res.status === 404) return { status: "none" };
    const { n, d } = pick(res.json());
    const num = typeof n === "number" && Number.isInteger(n) ? Math.min(10, Math.max(1, n)) : undefined;
    const difficulty =
      typeof d === "string" && (DIFFICULTIES as ReadonlyArray<string>).includes(d)
        ? (d as Difficulty)
        : undefined;
    if (num === undefined && difficulty === undefined) return { status: "none" };
    return {
      status: "found",
      ...(num !== undefined ? { numQuestions: num } : {}),
      ...(difficulty ? { difficulty } : {}),
    };
  } catch (error) {
    if (!ToolFailure.isInstance(error)) throw error;
    return { status: "failed", note: error.message };
  }
};
