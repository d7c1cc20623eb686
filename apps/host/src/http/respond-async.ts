import type { IncomingMessage, ServerResponse } from "node:http";
import type { TaskInfo } from "@quiver/tasks";
import { sendJson } from "./json-response.js";

/**
 * Whether the request asks to be answered before its work is done: `Prefer: respond-async`
 * (RFC 7240; preferences are comma-separated, case-insensitive, and may carry parameters).
 */
export const prefersAsync = (req: IncomingMessage): boolean => {
  const header = req.headers.prefer;
  if (header === undefined) return false;
  return (Array.isArray(header) ? header.join(",") : header)
    .split(",")
    .some((p) => p.split(/[=;]/)[0]!.trim().toLowerCase() === "respond-async");
};

/** Where a task is polled (GET), and cancelled (DELETE). */
export const taskLocation = (id: string): string => `/tasks/${encodeURIComponent(id)}`;

/** Seconds a poller should wait before its next GET, from the task's poll interval (at least 1). */
export const retryAfter = (task: TaskInfo): string =>
  String(Math.max(1, Math.ceil(task.pollIntervalMs / 1000)));

/**
 * `202 Accepted` for a started task: its status as the body, `Location` to poll it, and
 * `Preference-Applied: respond-async`.
 */
export const sendAccepted = (res: ServerResponse, task: TaskInfo): void =>
  sendJson(
    res,
    202,
    { task },
    {
      location: taskLocation(task.id),
      "preference-applied": "respond-async",
      "retry-after": retryAfter(task),
    },
  );

/**
 * A request's own task deadline, from `timeout_seconds` (the co-scientist's name): milliseconds, or
 * undefined when it is absent; a value that is not a positive number is an `Error` to answer 400.
 */
export const deadlineOf = (seconds: unknown): number | undefined | Error => {
  if (seconds === undefined) return undefined;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0
    ? seconds * 1000
    : new Error("timeout_seconds must be a positive number of seconds.");
};
