import type { TaskRunner } from "@quiver/tasks";
import type { HostProfile } from "../profiles/host-profile.js";
import { isSeedTask } from "../tasks/task-caller.js";
import type { ApiRoute } from "./api-routes.js";
import { sendError, sendJson } from "./json-response.js";
import { retryAfter } from "./respond-async.js";

const STATUS_HEADER = "x-quiver-task-status";

/**
 * `GET /tasks/:id`: `202` with `{ task }` while it works (poll again after `Retry-After`); once it
 * ended with a result, `200` with that result: the call's envelope, or a seed tool's own value (the
 * co-scientist's `ExternalToolResponse`); `410` for a task that ended without one (cancelled, its
 * replica stopped) or whose result expired. `DELETE /tasks/:id` cancels it (`409` once it ended).
 * Another principal's task is `404`, as an unknown one.
 */
const oneTask =
  (runner: TaskRunner, profile: HostProfile | undefined): ApiRoute["handle"] =>
  async ({ res, parts, method, caller }) => {
    const id = parts[1]!;
    if (method === "DELETE") {
      const answer = await runner.cancel(id, caller.principal);
      if (answer.ok)
        return sendJson(res, 200, { task: answer.task }, { [STATUS_HEADER]: answer.task.status });
      return answer.code === "finished"
        ? sendError(res, 409, "task_finished", answer.message)
        : sendError(res, 404, "not_found", answer.message);
    }
    if (method !== "GET" && method !== "HEAD")
      return sendError(res, 405, "method_not_allowed", "Use GET to poll a task, DELETE to cancel it.", {
        headers: { allow: "GET, DELETE" },
      });
    const answer = await runner.result(id, caller.principal);
    if (answer.ok) {
      const seed = isSeedTask(profile, answer.task.tool);
      return sendJson(res, 200, seed ? answer.envelope.data : answer.envelope, {
        [STATUS_HEADER]: answer.task.status,
        ...(seed ? {} : { "x-quiver-status": answer.envelope.status }),
      });
    }
    if (answer.code === "not_found") return sendError(res, 404, "not_found", answer.message);
    if (answer.code === "working" && answer.task)
      return sendJson(
        res,
        202,
        { task: answer.task },
        { [STATUS_HEADER]: answer.task.status, "retry-after": retryAfter(answer.task) },
      );
    return sendError(res, 410, `task_${answer.code}`, answer.message, {
      headers: answer.task ? { [STATUS_HEADER]: answer.task.status } : {},
    });
  };

/** `GET /tasks`: the caller's tasks, newest first (none without a principal: ids are the only guard there). */
const listTasks =
  (runner: TaskRunner): ApiRoute["handle"] =>
  async ({ res, url, caller }) => {
    const cursor = url.searchParams.get("cursor");
    const page = await runner.list(caller.principal, cursor ? { cursor } : {});
    return sendJson(res, 200, page);
  };

/**
 * The routes of the HTTP API's tasks (`Prefer: respond-async` on a call starts one).
 *
 * @example
 * import { createTaskRunner } from "@quiver/tasks"
 * const routes = taskRoutes(createTaskRunner({ catalog: host.catalog, store: host.store }), host.profile)
 */
export const taskRoutes = (runner: TaskRunner, profile: HostProfile | undefined): ReadonlyArray<ApiRoute> => [
  { path: ["tasks"], methods: ["GET", "HEAD"], handle: listTasks(runner) },
  { path: ["tasks", ":id"], handle: oneTask(runner, profile) },
];
