import { ToolFailure } from "@quiver/core";
import type { TestgenContext } from "../config.js";
import { DIFFICULTIES, type Difficulty } from "./questions.js";

/** A professor's defaults for a subject (none found: empty), or why they could not be read (`failed`). */
export interface Preferences {
  readonly numQuestions?: number;
  readonly difficulty?: Difficulty;
  readonly failed?: string;
}

/**
 * GET {backendUrl}/users/subject/{subject}/preferences (the original backend's endpoint, answering
 * `{default_test_questions, default_test_difficulty}`, maybe under `preferences`), with its own short
 * deadline; none without a backend URL. Never throws: a timeout, a refused connection or a bad answer mean "use the defaults", with
 * `failed` saying why.
 */
export const fetchPreferences = async (ctx: TestgenContext, subject: string): Promise<Preferences> => {
  const { http, config, signal } = ctx;
  if (!config.backendUrl) return {};
  try {
    const res = await http.request({
      baseUrl: config.backendUrl,
      url: `/users/subject/${encodeURIComponent(subject)}/preferences`,
      timeoutMs: config.preferencesTimeoutMs,
      signal,
      acceptStatus: [404],
      headers: { accept: "application/json" },
    });
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
