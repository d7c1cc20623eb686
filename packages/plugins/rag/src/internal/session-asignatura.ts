import type { ToolContext } from "@quiver/core";

/** The session value key the host fills with the student's subject. */
export const SESSION_KEY = "asignatura";

/**
 * How the session's subject reaches the tool:
 * - `default`: the `asignatura` field stays visible to the model; the session value fills it only when
 *   the model leaves it out (the tool works standalone and the model may ask about another subject);
 * - `override`: a context-injected parameter — hidden from the model, the session value always wins.
 */
export type SessionAsignatura = "default" | "override";

/** The subject to use: the explicit argument, else the session's (when it is a non-empty string). */
export const asignaturaFor = (
  explicit: string | undefined,
  ctx: Pick<ToolContext, "session">,
): string | undefined => {
  if (explicit !== undefined && explicit.trim() !== "") return explicit.trim();
  const fromSession = ctx.session[SESSION_KEY];
  return typeof fromSession === "string" && fromSession.trim() !== "" ? fromSession.trim() : undefined;
};
